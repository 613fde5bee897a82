//! The project-level classes of shell semantics, checked from their data: every
//! catalogue entry marked `prints-credentials` is listed here (a new one is a
//! deliberate change) and asks when called; every place on the persistence list
//! asks when written; every runner file the catalogue names asks when edited before
//! its runner.

use bashgate::catalogue::{Entry, Fact, entries};
use bashgate::{Decision, Gate};
use bashgate::{PERSISTENCE_PLACES, PlaceShape as Shape, PlaceWhen as When};
use std::path::PathBuf;

fn gate() -> Gate {
    let root: PathBuf =
        std::env::temp_dir().join(format!("bashgate-project-semantics-{}", std::process::id()));
    std::fs::create_dir_all(&root).expect("root");
    Gate::builder().root(&root).build().expect("gate")
}

/// Every entry (and subcommand entry) with `fact`, as the words that call it.
fn calls_with(fact: Fact) -> Vec<String> {
    fn walk(entry: &Entry, prefix: &str, fact: Fact, out: &mut Vec<String>) {
        let call = if prefix.is_empty() {
            entry.name.to_string()
        } else {
            format!("{prefix} {}", entry.name)
        };
        if entry.has(fact) {
            out.push(call.clone());
        }
        // A flag that adds the fact (`gpg --export-secret-keys`): its first spelling.
        for flag in entry.flag_facts.iter().filter(|f| f.facts.contains(&fact)) {
            if let Some(spelling) = flag.flags.first() {
                out.push(format!("{call} {spelling}"));
            }
        }
        for sub in entry.subcommands {
            walk(sub, &call, fact, out);
        }
    }
    let mut out = Vec::new();
    for entry in entries() {
        walk(entry, "", fact, &mut out);
    }
    out.sort();
    out
}

/// The programs, subcommands and flags that print credentials, with the arguments
/// that make them print one (the rule narrows some by an operand's value: `aws
/// configure get`, `pass`, the package managers' `config get`).
const CREDENTIAL_PRINTERS: &[(&str, &str)] = &[
    ("age -d", "-i key.txt x.age"),
    ("aws auth token", ""),
    ("aws codeartifact get-authorization-token", "--domain d"),
    ("az acr login -t", "-n r"),
    ("az ad sp create-for-rbac", ""),
    ("gcloud config config-helper", ""),
    ("nomad acl token read", "x"),
    ("npm config get", "//registry.npmjs.org/:_authToken"),
    ("pnpm config get", "//npm.example/:_authToken"),
    ("yarn config get", "npmAuthToken"),
    ("vault login", ""),
    ("vault token create", ""),
    ("aws auth:token", ""),
    ("aws config", "-a app"),
    ("ansible-vault view", "vault.yml"),
    ("chamber read", "svc key"),
    ("doppler secrets", "get X --plain"),
    ("pulumi --show-secrets", "config"),
    ("railway variables", ""),
    ("terraform output -json", ""),
    ("terraform state pull", ""),
    ("aws secretsmanager get-secret-value", "--secret-id x"),
    ("aws ssm get-parameter --with-decryption", "--name x"),
    ("az keyvault secret show", "--name x --vault-name v"),
    ("gcloud secrets versions access", "latest --secret=x"),
    ("glab auth status -t", ""),
    ("kubectl get secret", "x -o yaml"),
    ("lpass show", "x"),
    ("sops -d", "x.enc.yaml"),
    ("sops decrypt", "x.enc.yaml"),
    ("aws configure export-credentials", ""),
    ("aws configure get", "aws_secret_access_key"),
    ("aws ecr get-login-password", ""),
    ("aws sts get-session-token", ""),
    ("az account get-access-token", ""),
    ("bw get", "password x"),
    ("docker-credential-desktop", "get"),
    ("gcloud auth application-default print-access-token", ""),
    ("gcloud auth print-access-token", ""),
    ("gh auth status -t", ""),
    ("gh auth token", ""),
    ("git credential fill", ""),
    ("git credential-store get", ""),
    ("gpg --export-secret-keys", ""),
    ("keyctl print", "12345"),
    ("kubectl config view --raw", ""),
    ("kubectl create token", "default"),
    ("kwallet-query -r", "github kdewallet"),
    ("op item get", "x"),
    ("op read", "op://v/i/p"),
    ("pass", "show x"),
    ("printenv", ""),
    ("secret-tool lookup", "service github"),
    ("secret-tool search --unlock", "--all service github"),
    ("vault kv get", "secret/x"),
    ("vault read", "secret/x"),
    ("docker compose config", ""),
    ("docker-compose config", ""),
    ("dotenv list", ""),
    ("dotenvx get", "API_KEY"),
    ("helm get values", "web"),
    ("kubectl view-secret", "db"),
];

#[test]
fn the_catalogue_lists_exactly_the_known_credential_printers() {
    let mut listed: Vec<&str> = CREDENTIAL_PRINTERS.iter().map(|(c, _)| *c).collect();
    listed.sort_unstable();
    assert_eq!(calls_with(Fact::PrintsCredentials), listed);
}

#[test]
fn every_credential_printer_asks() {
    let gate = gate();
    for (call, args) in CREDENTIAL_PRINTERS {
        let command = format!("{call} {args}");
        let verdict = gate.check(command.trim());
        assert_eq!(verdict.decision, Decision::Ask, "{command}: {verdict:?}");
        assert!(
            verdict.has_rule("BG315") || verdict.has_rule("BG302"),
            "{command}: {verdict:?}"
        );
    }
}

/// A file name for a place: the place itself, or a file below a folder.
fn file_in(shape: Shape) -> String {
    match shape {
        Shape::Under(dir) => format!("{dir}/x"),
        Shape::File(file) => file.to_string(),
        Shape::Ending(dir, suffix) => format!("{dir}/x{suffix}"),
    }
}

#[test]
fn every_persistence_place_asks_when_written() {
    let gate = gate();
    for place in PERSISTENCE_PLACES {
        let file = file_in(place.shape);
        let command = match place.when {
            When::Always | When::ScriptSetting => format!("cp a.txt {file}"),
            When::LifecycleScript => {
                // Each manager's name for the script every install runs.
                let event = match file.as_str() {
                    "composer.json" => "post-install-cmd",
                    _ => "postinstall",
                };
                format!("echo '{{\"scripts\":{{\"{event}\":\"x\"}}}}' > {file}")
            }
        };
        let verdict = gate.check(&command);
        assert!(verdict.has_rule("BG217"), "{command}: {verdict:?}");
        assert_eq!(verdict.decision, Decision::Ask, "{command}");
        // Reading it is fine.
        let read = gate.check(&format!("cat {file}"));
        assert_eq!(read.decision, Decision::Allow, "cat {file}: {read:?}");
        // In a folder below the root as well (a nested repository).
        let nested = gate.check(&format!("cp a.txt vendor/x/{file}"));
        if matches!(place.when, When::Always) {
            assert!(nested.has_rule("BG217"), "nested {file}: {nested:?}");
        }
    }
}

#[test]
fn every_runner_file_asks_when_edited_before_its_runner() {
    let gate = gate();
    let mut checked = 0;
    for entry in entries() {
        let mut stack: Vec<(&Entry, String)> = vec![(entry, entry.name.to_string())];
        while let Some((e, call)) = stack.pop() {
            for file in e.runs_files {
                let name = file.replace('*', "x");
                let command = format!("sed -i s/a/b/ {name} && {call}");
                let verdict = gate.check(&command);
                assert!(verdict.has_rule("BG218"), "{command}: {verdict:?}");
                assert_ne!(verdict.decision, Decision::Allow, "{command}");
                // Running it without the edit does not trigger the rule.
                assert!(!gate.check(&call).has_rule("BG218"), "{call}");
                checked += 1;
            }
            for sub in e.subcommands {
                stack.push((sub, format!("{call} {}", sub.name)));
            }
        }
    }
    assert!(checked >= 40, "only {checked} runner files");
}
