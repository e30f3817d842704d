//! "seat 2 (ismcts:4s) is thinking … 3 s": a line on the terminal while a
//! bot chooses, with the time it has taken so far, so that a long search
//! is never a silent wait. It appears only when the choice takes longer
//! than a moment (a quick bot shows nothing), is rewritten in place every
//! half second, and is erased when the bot has chosen.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a bot may choose before the line appears.
const QUIET: Duration = Duration::from_millis(300);
/// How often the line is rewritten.
const TICK: Duration = Duration::from_millis(500);

/// The line shown while `who` has been choosing for `elapsed`.
pub fn line(who: &str, elapsed: Duration) -> String {
    format!(
        "{who} is thinking … {} s (Ctrl-C stops it)",
        elapsed.as_secs()
    )
}

/// The line on the terminal while it lives; dropping it erases the line.
pub struct Thinking {
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Thinking {
    /// Start showing that `who` (a seat's label) is choosing.
    pub fn start(who: String) -> Thinking {
        let done = Arc::new(AtomicBool::new(false));
        let flag = done.clone();
        let thread = std::thread::Builder::new()
            .name("thinking".into())
            .spawn(move || show(&who, &flag))
            .ok();
        Thinking { done, thread }
    }
}

/// Until `done`: after [`QUIET`], the line, rewritten every [`TICK`];
/// then erase it if it was shown.
fn show(who: &str, done: &AtomicBool) {
    let start = Instant::now();
    let mut shown = false;
    let mut next = QUIET;
    loop {
        // Sleep in short naps, to leave at once when the bot is done.
        while start.elapsed() < next {
            if done.load(Ordering::Relaxed) {
                if shown {
                    let mut out = std::io::stdout().lock();
                    let _ = write!(out, "\r\x1b[2K");
                    let _ = out.flush();
                }
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "\r\x1b[2K{}", line(who, start.elapsed()));
        let _ = out.flush();
        shown = true;
        next += TICK;
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_seat_the_time_and_how_to_stop_it() {
        assert_eq!(
            line("seat 2 (ismcts:4s)", Duration::from_millis(3700)),
            "seat 2 (ismcts:4s) is thinking … 3 s (Ctrl-C stops it)"
        );
    }
}
