//! What each seat may see and what a game came to: views, status lines,
//! the result, the rounds, the metrics and the evaluation a search scores
//! positions by.

use super::*;

impl Game {
    /// The script variables, as JSON.
    pub fn vars(&self) -> Result<Json> {
        let v: Value = self.state.raw_get("vars")?;
        Ok(crate::lua::to_json(self.host.lua(), v, "game.vars")?)
    }

    /// What `seat` may see (`None`: everything, for an observer or a trace).
    pub fn view(&self, seat: Option<Seat>) -> Result<SeatView> {
        let zones = self.zone_views(seat)?;
        let t = self.table_ref()?;
        Ok(SeatView {
            seat,
            zones,
            vars: self.vars()?,
            teams: t.teams.clone(),
            to_move: self.pending.map(|p| p.0),
        })
    }

    /// The zones of [`Game::view`]: what `seat` sees of each.
    pub(crate) fn zone_views(&self, seat: Option<Seat>) -> Result<Vec<ZoneView>> {
        self.usable()?;
        let t = self.table_ref()?;
        Ok(t.zones
            .iter()
            .map(|z| {
                let sight = z.sight(seat);
                ZoneView {
                    name: z.name.clone(),
                    owner: z.owner,
                    visibility: z.visibility,
                    count: z.cards.len(),
                    cards: (sight == Sight::All).then(|| z.cards.clone()),
                    top: (sight == Sight::Top)
                        .then(|| z.cards.last().copied())
                        .flatten(),
                }
            })
            .collect())
    }

    /// Whether `seat` may see an event (card moves follow zone visibility).
    pub fn event_visible_to(&self, event: &Event, seat: Seat) -> bool {
        match &event.kind {
            EventKind::Script { to, .. } => to.is_none_or(|s| s == seat),
            EventKind::Move { from, to, .. } => self
                .with_table(|t| t.move_visible_to(*from, *to, seat))
                .unwrap_or(false),
            EventKind::Place { to, .. } => self
                .with_table(|t| t.zone(*to).is_ok_and(|z| z.sight(Some(seat)) == Sight::All))
                .unwrap_or(false),
            EventKind::Shuffle { .. } | EventKind::Sort { .. } => true,
        }
    }

    /// Lines the rules want shown under the table for `seat`.
    pub fn status_lines(&self, seat: Seat) -> Result<Vec<String>> {
        let f = &self.host.entry.status;
        let _in_play = self.enter();
        Ok(f.call((self.state.clone(), seat))?)
    }

    /// Why `seat` may not play `card` now, in the rules' words
    /// (`rules.why_not`); `None` when the rules give no reason. The answer
    /// is meant for that seat only.
    pub fn why_not(&self, seat: Seat, card: u32) -> Result<Option<String>> {
        let f = &self.host.entry.why_not;
        let _in_play = self.enter();
        Ok(f.call((self.state.clone(), seat, card))?)
    }

    /// The outcome reported by the rules (meaningful once the game is over).
    pub fn result(&self) -> Result<GameResult> {
        let f = &self.host.entry.result;
        let _in_play = self.enter();
        let v: Value = f.call(self.state.clone())?;
        // Straight from Lua, so that an empty table reads as an empty list.
        self.host
            .lua()
            .from_value(v)
            .map_err(|e| CoreError::Script(format!("result() returned an unexpected shape: {e}")))
    }

    /// The value of every metric the rules define (`rules.metrics`), sorted
    /// by name, for this game (meant for a finished game): a number, a
    /// boolean as 1 or 0 (a share of games), or `None` when the metric does
    /// not apply to this game (its function returned nil). A metric that
    /// fails, or returns anything else (or, declared a share, a number
    /// outside 0..1), is an error naming its file and line.
    pub fn metrics(&self) -> Result<Vec<(String, Option<f64>)>> {
        let mut out = Vec::with_capacity(self.rules.metrics.len());
        for (name, f) in &self.rules.metrics {
            let v: Value = {
                let _in_play = self.enter();
                self.host
                    .entry
                    .metric
                    .call((self.state.clone(), f.clone()))
                    .map_err(|e| CoreError::Script(format!("metric '{name}': {e}")))?
            };
            let x = match v {
                Value::Nil => None,
                Value::Boolean(b) => Some(if b { 1.0 } else { 0.0 }),
                Value::Integer(i) => Some(i as f64),
                Value::Number(x) if x.is_finite() => Some(x),
                other => {
                    let info = f.info();
                    let at = format!(
                        "{}:{}",
                        info.short_src.as_deref().unwrap_or("?"),
                        info.line_defined.unwrap_or(0)
                    );
                    let what = match other {
                        Value::Number(x) => format!("the number {x}"),
                        o => format!("a {}", o.type_name()),
                    };
                    return Err(CoreError::Script(format!(
                        "metric '{name}' ({at}) returned {what}; a metric returns a finite \
                         number, a boolean or nil"
                    )));
                }
            };
            let share = self.rules.info.metrics.get(name).is_some_and(|m| m.share);
            if let Some(x) = x.filter(|x| share && !(0.0..=1.0).contains(x)) {
                let info = f.info();
                return Err(CoreError::Script(format!(
                    "metric '{name}' ({}:{}) returned {x}; it says it is a share (`share = \
                     true`), a number from 0 to 1",
                    info.short_src.as_deref().unwrap_or("?"),
                    info.line_defined.unwrap_or(0)
                )));
            }
            out.push((name.clone(), x));
        }
        Ok(out)
    }

    /// The team (0-based) of every seat, seat 1 first, when the rules
    /// set teams (`game:set_teams`); `None` when every seat plays alone.
    pub fn seat_teams(&self) -> Result<Option<Vec<usize>>> {
        self.with_table(|t| {
            t.teams.as_ref()?;
            Some(
                (1..=self.config.players)
                    .map(|s| t.team_of(s).unwrap_or(usize::MAX))
                    .collect(),
            )
        })
    }

    /// The number of rounds played or under way (the result's `rounds`).
    pub fn rounds(&self) -> Result<u32> {
        let f = &self.host.entry.rounds;
        let _in_play = self.enter();
        Ok(f.call(self.state.clone())?)
    }

    /// The rules' estimate (`rules.evaluate`) of the position for `seat`,
    /// from 0 (a sure loss) to 1 (a sure win); `None` when the rules give
    /// none. Search bots use it to stop a playout at the end of a round.
    pub fn evaluate(&self, seat: Seat) -> Result<Option<f64>> {
        let f = &self.host.entry.evaluate;
        let _in_play = self.enter();
        let v: Option<f64> = f.call((self.state.clone(), seat))?;
        Ok(v.map(|v| v.clamp(0.0, 1.0)))
    }
}
