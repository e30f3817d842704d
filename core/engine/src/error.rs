//! Errors of the core, as values with a message a user can act on.

use thiserror::Error;

/// Everything that can go wrong in the core.
#[derive(Debug, Error)]
pub enum CoreError {
    /// A script failed: syntax error, runtime error, budget exceeded. The
    /// message names the script file and line when Lua knows them.
    #[error("script error: {0}")]
    Script(String),
    /// A script or a user asked for something the rules do not allow.
    #[error("{0}")]
    Rule(String),
    /// A game, variant or module that is not on the scripts search path.
    #[error("not found: {0}")]
    NotFound(String),
    /// A bad option, player count, seat or choice given by the user.
    #[error("{0}")]
    Invalid(String),
    /// A saved game or trace that cannot be read.
    #[error("bad save file: {0}")]
    BadSave(String),
    /// Replaying a log stopped at a step that is no longer legal.
    #[error("the log stops being legal at step {step}: {reason}")]
    Replay {
        /// 1-based step number in the action log.
        step: usize,
        /// Why that step cannot be replayed.
        reason: String,
    },
    /// Replaying a log stopped because the rules failed at a step (a
    /// script error: a bug, the instruction budget, the memory limit), not
    /// because the step is no longer legal.
    #[error("the rules fail at step {step} of the log: {error}")]
    ReplayFailed {
        /// 1-based step number in the action log.
        step: usize,
        /// The rules' error, with its file and line.
        error: Box<CoreError>,
    },
    /// A step failed, and putting the game back as it was before the step
    /// failed too: the game cannot be played on, but its log is intact.
    #[error(
        "{step_error}; restoring the game as it was before the step failed too ({restore_error}): \
         its log is intact: save it and load it again"
    )]
    Restore {
        step_error: String,
        restore_error: String,
    },
    /// A long computation (a search, bots playing on) was cancelled from
    /// outside ([`crate::Cancel`]); the game is as it was before the step
    /// it was working on.
    #[error("interrupted")]
    Cancelled,
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
}

impl From<serde_json::Error> for CoreError {
    fn from(e: serde_json::Error) -> Self {
        CoreError::BadSave(e.to_string())
    }
}

/// Result type of the core.
pub type Result<T> = std::result::Result<T, CoreError>;
