//! What tab completion may offer at the next prompt: the words of every
//! game (ids, variants, options, bots), the current game and the names of
//! the legal moves. The session fills a [`Vocabulary`] before each prompt;
//! [`complete`](super::complete) reads it.

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
    pub(super) fn game(&self, id: Option<&str>) -> Option<&GameWords> {
        let id = id.or(self.current.as_deref())?;
        self.games.iter().find(|g| g.id == id)
    }

    pub(super) fn seat_kinds(&self, game: Option<&str>) -> Vec<String> {
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
