//! Every command of the data-driven corpus (`corpus/*.toml`), for tests that run
//! the whole corpus through another check (the oracle, the fast-path differential,
//! the catalogue's coverage).

use std::path::Path;

/// The `cmd` of every case in every corpus file.
pub fn corpus_commands() -> Vec<String> {
    #[derive(serde::Deserialize)]
    struct File {
        #[serde(rename = "case", default)]
        cases: Vec<Case>,
    }
    #[derive(serde::Deserialize)]
    struct Case {
        cmd: String,
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("corpus folder") {
        let path = entry.expect("corpus entry").path();
        if path.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&path).expect("read corpus");
            let file: File = toml::from_str(&text).expect("parse corpus");
            out.extend(file.cases.into_iter().map(|c| c.cmd));
        }
    }
    out
}
