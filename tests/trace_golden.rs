//! The bytes of traces do not change by accident: the trace of fixed seeds
//! of every game, at every level and for one seat, must hash to the value
//! recorded here. Work on how traces are written (speed, buffering) must
//! leave every byte as it was; tests/trace.rs checks what traces mean, this
//! checks that they stay the same.
//!
//! To change a trace deliberately (a new field, a new event, a rule that
//! plays differently), make the change, run
//!
//!     cargo test -p deckhand --test it trace_golden::
//!
//! and read the failure: it lists every case with the hash it now gives.
//! Check the new traces by hand (the message names where to find them),
//! then copy the listed lines into `CASES` below, and say in the commit
//! why the traces changed.

use std::path::Path;
use std::process::Command;

/// The name of each case, the arguments of `deckhand sim` (the trace file
/// is added), and the FNV-1a hash of the trace written.
const CASES: &[(&str, &str, u64)] = &[
    (
        "sea_change_4p_events",
        "sea_change -p 4 -n 3 --seed 1 --trace-level events",
        0xaa0db0ac87bd5336,
    ),
    (
        "sea_change_4p_decisions",
        "sea_change -p 4 -n 3 --seed 1 --trace-level decisions",
        0x3cf2a018a63782de,
    ),
    (
        "sea_change_4p_full",
        "sea_change -p 4 -n 3 --seed 1",
        0xb961c260591f6762,
    ),
    (
        "sea_change_solo_full",
        "sea_change -p 1 -n 2 --seed 7",
        0x65a086a6ab9aaf21,
    ),
    (
        "sea_change_2p_full",
        "sea_change -p 2 -n 2 --seed 3",
        0x77a33e728bf05173,
    ),
    (
        "sea_change_2p_seat_1",
        "sea_change -p 2 -n 2 --seed 3 --trace-seat 1",
        0x4eee89651df362cb,
    ),
    (
        "sea_change_team_full",
        "sea_change -p 6 -v team -n 2 --seed 5",
        0x86d76b5adfb132e0,
    ),
    (
        "seas_of_strife_passing_full",
        "seas_of_strife -p 4 -v passing -n 2 --seed 2",
        0x2e7db0271c2e2435,
    ),
    (
        "seas_of_strife_passing_decisions",
        "seas_of_strife -p 4 -v passing -n 2 --seed 2 --trace-level decisions",
        0xbcaa2886b666125d,
    ),
    (
        "sea_salt_paper_full",
        "sea_salt_paper -p 3 -n 2 --seed 4",
        0x95d321b9f4b55894,
    ),
    (
        "sea_salt_paper_decisions",
        "sea_salt_paper -p 3 -n 2 --seed 4 --trace-level decisions",
        0x1698294627f3e230,
    ),
    (
        "seadogs_full",
        "seadogs -p 3 -n 2 --seed 6",
        0x4d549768fd098dd0,
    ),
    (
        "seadogs_seat_2",
        "seadogs -p 3 -n 2 --seed 6 --trace-seat 2",
        0x5f944e813e6e0051,
    ),
    (
        "seadogs_events",
        "seadogs -p 3 -n 2 --seed 6 --trace-level events",
        0x6e4ba40196728ec8,
    ),
];

/// 64-bit FNV-1a: small, and the same on every machine and Rust release.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The trace `deckhand sim ARGS` writes to `path` (two worker threads: the
/// order of the games must not depend on which finishes first).
fn trace(args: &str, path: &Path) -> Vec<u8> {
    let p = path.display().to_string();
    let mut all: Vec<&str> = vec!["sim"];
    all.extend(args.split_whitespace());
    all.extend(["-j", "2", "--json", "--trace", &p]);
    let o = Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .args(&all)
        // A folder without scripts/: the built-in scripts play.
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run deckhand");
    assert!(
        o.status.success(),
        "deckhand {}: {}",
        all.join(" "),
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read(path).expect("the trace")
}

#[test]
fn traces_of_fixed_seeds_are_the_bytes_recorded() {
    let dir = tempfile::Builder::new()
        .prefix("deckhand-trace-golden")
        .tempdir()
        .expect("tmp");
    let mut changed = Vec::new();
    let mut now = Vec::new();
    for &(name, args, want) in CASES {
        let path = dir.path().join(format!("{name}.jsonl"));
        let bytes = trace(args, &path);
        assert!(!bytes.is_empty(), "{name}: an empty trace");
        let got = fnv1a(&bytes);
        now.push(format!("    (\"{name}\", \"{args}\", {got:#018x}),"));
        if got != want {
            changed.push(name);
        }
    }
    if !changed.is_empty() {
        // Kept for a look: the traces that changed stay on disk.
        let kept = dir.keep();
        panic!(
            "the traces of {} changed (they are in {}). If the change is \
             deliberate, the cases are now:\n{}",
            changed.join(", "),
            kept.display(),
            now.join("\n")
        );
    }
}

#[test]
fn the_hash_tells_traces_apart() {
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_ne!(fnv1a(b"{\"s\":1}\n"), fnv1a(b"{\"s\":2}\n"));
}
