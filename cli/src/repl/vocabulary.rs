//! What tab completion may offer at the next prompt: the words of every
//! game (ids, variants, options, bots), the current game and the names of
//! the legal moves. The session fills a [`Vocabulary`] before each prompt;
//! [`complete`](super::complete) reads it, and hands a command's arguments
//! ([`Typed`]) to that command's completer.

/// What one game offers to complete.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameWords {
    pub id: String,
    pub variants: Vec<String>,
    pub options: Vec<String>,
    pub bots: Vec<String>,
}

/// Everything completion may offer at the next prompt.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Vocabulary {
    pub games: Vec<GameWords>,
    /// The current game's id, if any.
    pub current: Option<String>,
    /// Names of the legal moves (option texts and card names).
    pub moves: Vec<String>,
}

impl Vocabulary {
    /// The words of game `id`, or of the current game.
    pub fn game(&self, id: Option<&str>) -> Option<&GameWords> {
        let id = id.or(self.current.as_deref())?;
        self.games.iter().find(|g| g.id == id)
    }

    /// Who may sit at a seat of `game` (or of the current game).
    pub fn seat_kinds(&self, game: Option<&str>) -> Vec<String> {
        let mut kinds = vec![
            "human".to_string(),
            "random".to_string(),
            "mc".to_string(),
            "ismcts".to_string(),
        ];
        match self.game(game) {
            Some(g) => kinds.extend(g.bots.iter().cloned()),
            None => kinds.extend(self.games.iter().flat_map(|g| g.bots.iter().cloned())),
        }
        kinds.sort();
        kinds.dedup();
        kinds
    }
}

/// What completion offers: the byte offset where the replaced text starts,
/// and the candidates; `None` asks for file names.
pub type Completion = Option<(usize, Vec<String>)>;

/// A command's arguments typed so far, up to the cursor.
pub struct Typed<'a> {
    /// The line up to the cursor.
    pub before: &'a str,
    /// Where the arguments start (a byte offset in the line).
    pub args_start: usize,
    /// Where the word under the cursor starts.
    pub word_start: usize,
    /// Which argument the cursor is in: 1 for the first, 2 for the second ...
    pub arg_index: usize,
}

impl Typed<'_> {
    /// The arguments up to the cursor.
    pub fn args(&self) -> &str {
        &self.before[self.args_start..]
    }

    /// The word under the cursor, up to the cursor.
    pub fn word(&self) -> &str {
        &self.before[self.word_start..]
    }

    /// Where the text after the last `sep` of the word starts, if it has one.
    pub fn after(&self, sep: char) -> Option<usize> {
        self.word().rfind(sep).map(|i| self.word_start + i + 1)
    }

    /// Nothing to offer for the word under the cursor.
    pub fn nothing(&self) -> Completion {
        Some((self.word_start, Vec::new()))
    }
}

/// A command that completes none of its arguments.
pub fn no_completion(_: &Vocabulary, typed: &Typed) -> Completion {
    typed.nothing()
}

fn starts_with_ci(candidate: &str, typed: &str) -> bool {
    candidate.to_lowercase().starts_with(&typed.to_lowercase())
}

/// The words that start with `typed` (case-insensitive), sorted, once each.
pub fn matching(words: impl IntoIterator<Item = String>, typed: &str) -> Vec<String> {
    let mut out: Vec<String> = words
        .into_iter()
        .filter(|w| starts_with_ci(w, typed))
        .collect();
    out.sort();
    out.dedup();
    out
}
