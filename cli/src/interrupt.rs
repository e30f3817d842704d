//! Ctrl-C while a command runs. At the prompt the line editor reads
//! Ctrl-C as a key; while a command runs (a long `hint`, bots searching)
//! the terminal sends SIGINT, which would end the process and lose the
//! game. [`CtrlC::catch`] installs a handler for the time of one command
//! that only sets a [`Cancel`] flag; the search and the bots check it and
//! stop, and the command returns to the prompt with the game intact. The
//! handler that was there before is put back when the guard drops.

use deckhand_engine::Cancel;
use std::sync::OnceLock;

/// The flag the handler sets (a static: a signal handler has no other way
/// to reach it).
static FLAG: OnceLock<Cancel> = OnceLock::new();

/// The flag that Ctrl-C sets while a [`CtrlC`] guard lives.
pub fn flag() -> Cancel {
    FLAG.get_or_init(Cancel::new).clone()
}

extern "C" fn on_sigint(_: libc::c_int) {
    // An atomic load and an atomic store: async-signal-safe.
    if let Some(flag) = FLAG.get() {
        flag.cancel();
    }
}

/// While it lives, SIGINT sets [`flag`] instead of ending the process.
pub struct CtrlC {
    previous: libc::sigaction,
}

impl CtrlC {
    /// Clear the flag and catch SIGINT; `None` if the handler could not be
    /// installed (Ctrl-C then ends the process as before).
    pub fn catch() -> Option<CtrlC> {
        flag().reset();
        // SAFETY: sigaction with a zeroed struct, an empty mask and a
        // handler that only touches atomics.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            action.sa_flags = libc::SA_RESTART;
            let mut previous: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGINT, &action, &mut previous) != 0 {
                return None;
            }
            Some(CtrlC { previous })
        }
    }
}

impl Drop for CtrlC {
    fn drop(&mut self) {
        // SAFETY: puts back the action saved by `catch`.
        unsafe {
            libc::sigaction(libc::SIGINT, &self.previous, std::ptr::null_mut());
        }
    }
}
