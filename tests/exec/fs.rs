//! Filesystem cases: traversal, absolute paths, symlinks, programs the gate does not
//! understand, interpreters, direct system calls, deletion.

use super::*;

/// A read of the decoy that the gate flags: the gate alone does not allow it, the
/// sandbox alone refuses it, both together do not run it.
fn outside_read_held_three_ways(fixture: &Fixture, command: &str) {
    assert_ne!(fixture.gate(command), "allow", "gate alone: {command}");
    let alone = fixture.sandbox_alone(command);
    assert_eq!(alone["ran"], true, "{alone}");
    assert!(
        !output(&alone).contains(SECRET),
        "sandbox alone leaked: {command}: {alone}"
    );
    assert_ne!(alone["exit_code"], 0, "{command}: {alone}");
    let both = fixture.both(command);
    assert_eq!(both["ran"], false, "both: {command}: {both}");
    assert!(both["exit_code"] == 1 || both["exit_code"] == 2, "{both}");
}

#[test]
fn traversal_out_of_the_root_is_held() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    outside_read_held_three_ways(&f, "cat ../decoy/secret");
    outside_read_held_three_ways(&f, "cd .. && cat decoy/secret");
}

#[test]
fn absolute_outside_reads_and_writes_are_held() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let decoy = f.decoy.display();
    outside_read_held_three_ways(&f, &format!("cat {decoy}/secret"));
    let write = format!("echo pwned > {decoy}/secret; echo new > {decoy}/new");
    assert_ne!(f.gate(&write), "allow");
    let alone = f.sandbox_alone(&write);
    assert!(output(&alone).contains("Permission denied"), "{alone}");
    assert_decoy_intact(&f.decoy.join("secret"));
    assert!(!f.decoy.join("new").exists());
}

#[test]
fn a_symlink_in_the_root_pointing_out_is_held() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    std::os::unix::fs::symlink(&f.decoy, f.root.join("link")).unwrap();
    outside_read_held_three_ways(&f, "cat link/secret");
    let alone = f.sandbox_alone("echo pwned > link/secret");
    assert_ne!(alone["exit_code"], 0, "{alone}");
    assert_decoy_intact(&f.decoy.join("secret"));
}

#[test]
fn a_symlink_the_command_creates_is_held() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let command = format!("ln -s {} made && cat made/secret", f.decoy.display());
    outside_read_held_three_ways(&f, &command);
    // The link itself is made (inside the root); following it out is refused.
    assert!(f.root.join("made").is_symlink());
}

#[test]
fn a_project_script_the_gate_allows_gets_a_kernel_permission_error() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    // The path is computed at run time: no static analysis sees it.
    f.script(
        "tool.sh",
        &format!(
            "d=$(printf '%s' '{}'); cat \"$d/secret\"; echo pwned > \"$d/secret\"; touch \"$d/planted\"",
            f.decoy.display()
        ),
    );
    assert_eq!(
        f.gate("./tool.sh"),
        "allow",
        "the gate cannot see inside the script"
    );
    for json in [f.sandbox_alone("./tool.sh"), f.both("./tool.sh")] {
        assert_eq!(json["ran"], true, "{json}");
        let out = output(&json);
        assert!(!out.contains(SECRET), "{json}");
        assert!(out.contains("Permission denied"), "{json}");
        assert_ne!(json["exit_code"], 0, "{json}");
    }
    assert_decoy_intact(&f.decoy.join("secret"));
    assert!(!f.decoy.join("planted").exists());
}

#[test]
fn interpreters_reading_and_writing_outside_are_refused_by_the_kernel() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let secret = f.decoy.join("secret");
    let s = secret.display();
    // The system's Python: a version manager's shim cannot start in the sandbox, and
    // its "Permission denied" would pass this case without trying anything.
    let python = system_python().unwrap_or("python3");
    let mut cases = vec![format!(
        "{python} -c 'import os\ntry:\n  print(open(\"{s}\").read())\nexcept OSError as e: print(\"read\", e.errno)\ntry:\n  os.open(\"{s}\", os.O_WRONLY|os.O_TRUNC)\nexcept OSError as e: print(\"write\", e.errno)'"
    )];
    cases.push(format!(
        "perl -e 'open(my $f, \"<\", \"{s}\") or print \"read $!\\n\"; print <$f> if $f; open(my $w, \">\", \"{s}\") or print \"write $!\\n\";'"
    ));
    if have("node") {
        cases.push(format!(
            "node -e 'const fs=require(\"fs\"); try {{ console.log(fs.readFileSync(\"{s}\",\"utf8\")) }} catch (e) {{ console.log(\"read\", e.code) }} try {{ fs.writeFileSync(\"{s}\",\"x\") }} catch (e) {{ console.log(\"write\", e.code) }}'"
        ));
    }
    for command in &cases {
        let program = command.split_whitespace().next().unwrap();
        if !have(program) {
            continue;
        }
        assert_ne!(f.gate(command), "allow", "{command}");
        let alone = f.exec(&["--no-gate", "--sandbox", "require"], command).0;
        let out = output(&alone);
        assert!(!out.contains(SECRET), "{program}: {alone}");
        assert!(
            out.contains("13") || out.contains("Permission denied") || out.contains("EACCES"),
            "{program} should see EACCES: {alone}"
        );
        assert_decoy_intact(&secret);
    }
}

#[test]
fn direct_system_calls_are_refused_by_the_kernel() {
    if !sandbox_available() {
        return;
    }
    if !have("cc") {
        eprintln!("skipped: no C compiler");
        return;
    }
    let f = Fixture::new();
    let source = f.base.join("open.c");
    // The path is compiled in: the gate sees only `./rawopen`.
    std::fs::write(
        &source,
        "#include <fcntl.h>\n#include <stdio.h>\n#include <errno.h>\n#include <unistd.h>\n#include <sys/syscall.h>\n\
         int main(void) {\n\
           long r = syscall(SYS_openat, AT_FDCWD, TARGET, O_RDONLY);\n\
           printf(\"read=%ld errno=%d\\n\", r, r < 0 ? errno : 0);\n\
           r = syscall(SYS_openat, AT_FDCWD, TARGET, O_WRONLY | O_TRUNC);\n\
           printf(\"write=%ld errno=%d\\n\", r, r < 0 ? errno : 0);\n\
           return 0; }\n",
    )
    .unwrap();
    let status = std::process::Command::new("cc")
        .arg(format!("-DTARGET=\"{}/secret\"", f.decoy.display()))
        .arg("-o")
        .arg(f.root.join("rawopen"))
        .arg(&source)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(f.gate("./rawopen"), "allow");
    for json in [f.sandbox_alone("./rawopen"), f.both("./rawopen")] {
        assert_eq!(json["ran"], true, "{json}");
        let out = output(&json);
        assert!(out.contains("read=-1 errno=13"), "{json}");
        assert!(out.contains("write=-1 errno=13"), "{json}");
    }
    assert_decoy_intact(&f.decoy.join("secret"));
}

#[test]
fn deleting_outside_through_a_script_leaves_the_decoy() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    f.script("clean.sh", &format!("rm -rf \"{}\"", f.decoy.display()));
    for json in [f.sandbox_alone("./clean.sh"), f.both("./clean.sh")] {
        assert_eq!(json["ran"], true, "{json}");
        assert_ne!(json["exit_code"], 0, "{json}");
    }
    assert_decoy_intact(&f.decoy.join("secret"));
    let direct = format!("rm -rf {}", f.decoy.display());
    assert_ne!(f.gate(&direct), "allow");
    f.sandbox_alone(&direct);
    assert_decoy_intact(&f.decoy.join("secret"));
}

#[test]
fn the_root_is_writable_and_nothing_else_of_home_is_visible() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    // The gate asks about `~`; approved, it lists the private HOME.
    let (json, _) = f.exec(
        &["--sandbox", "require", "--yes"],
        "echo made > built.txt && cat built.txt && ls -A ~ | wc -l",
    );
    assert_eq!(json["exit_code"], 0, "{json}");
    assert_eq!(output(&json), "made\n0\n", "{json}");
    assert_eq!(
        std::fs::read_to_string(f.root.join("built.txt")).unwrap(),
        "made\n"
    );
    // The private HOME is removed afterwards.
    let home = json["sandbox"]["home"].as_str().unwrap();
    assert!(!Path::new(home).exists(), "{home}");
}
