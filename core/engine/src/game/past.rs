//! Earlier positions of a game, replayed from its config and log, and a
//! guess at the hidden cards read back into them: what a search needs to
//! ask how likely the moves the other seats made were under each of its
//! guesses (inference).

use super::*;

/// The game as it stood before one action of its log.
pub struct PastPosition {
    /// The action's place in the log (0-based).
    pub step: usize,
    /// What was chosen there.
    pub record: ActionRecord,
    game: Game,
    tape: LuaTable,
}

impl PastPosition {
    /// The position itself (a copy: no log, no history).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// This position with card `to` wherever card `from` was, for each pair
    /// of `map` (a guess of today read back: [`Game::swapped_in`]), made in
    /// `scratch` (the copy made last time, whose tables are reused).
    pub fn relabelled<'s>(
        &self,
        map: &BTreeMap<u32, u32>,
        scratch: &'s mut Option<Game>,
    ) -> Result<&'s mut Game> {
        let mut copy = match scratch.take() {
            Some(mut copy) => match self.game.refork(&mut copy, &self.tape) {
                Ok(()) => copy,
                Err(_) => self.game.fork()?,
            },
            None => self.game.fork()?,
        };
        let changed = copy.table_mut()?.relabel(map);
        if !changed.is_empty() {
            self.game.load_zones(&copy, changed)?;
            // The decision as the rules pose it with these cards (another
            // hand offers other cards to play).
            let stepped: Stepped = {
                let _in_play = copy.enter();
                self.game.host.entry.refresh.call(copy.state.clone())?
            };
            let (pending, kind, shape) = shape_of(&stepped);
            copy.pending = pending;
            copy.pending_kind = kind;
            copy.shape = shape;
        }
        Ok(scratch.insert(copy))
    }
}

impl Game {
    /// The positions before the actions of this game's log that `keep`
    /// selects (given the position and the action's place in the log),
    /// replayed from the config in this VM. Costs a replay of the whole
    /// log.
    pub fn past_positions(
        &self,
        mut keep: impl FnMut(&Game, usize, &ActionRecord) -> Result<bool>,
    ) -> Result<Vec<PastPosition>> {
        self.usable()?;
        let mut replay = Game::start(
            self.host.clone(),
            self.rules.clone(),
            self.config.clone(),
            false,
            false,
            self.fresh_replay,
        )?;
        let mut out = Vec::new();
        for (step, record) in self.history.iter().enumerate() {
            if keep(&replay, step, record)? {
                let game = replay.fork()?;
                let tape = game.tape()?;
                out.push(PastPosition {
                    step,
                    record: record.clone(),
                    game,
                    tape,
                });
            }
            replay.step_raw(&record.choice())?;
        }
        Ok(out)
    }

    /// Slot by slot, the cards `guess` (a copy of this game with some cards
    /// dealt again: [`Game::determinized_into`]) holds where this game
    /// holds others: pairs (card here, card there), a permutation of the
    /// cards the guess moved (empty when the two do not pair up).
    pub fn swapped_in(&self, guess: &Game) -> Result<BTreeMap<u32, u32>> {
        let mine = self.table_ref()?;
        let theirs = guess.table_ref()?;
        Ok(mine.swapped_in(&theirs))
    }
}
