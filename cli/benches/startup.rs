//! Start-up benchmark (run with `cargo bench -p deckhand`): wall time of the
//! `deckhand` binary from launch to its first prompt, with Sea Change loaded
//! and dealt (stdin closed, so it exits at once). Median of 7 runs.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let mut times: Vec<Duration> = (0..7)
        .map(|_| {
            let t = Instant::now();
            let status = Command::new(env!("CARGO_BIN_EXE_deckhand"))
                .env("NO_COLOR", "1")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("run deckhand");
            assert!(status.success(), "deckhand exited with {status}");
            t.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "deckhand start-up to first prompt (stdin closed): {:.1} ms (median of 7)",
        times[times.len() / 2].as_secs_f64() * 1e3
    );
}
