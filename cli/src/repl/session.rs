//! The REPL's state: the game in progress and its seats, starting a game,
//! and what the commands share to show it (the table, the moves, the
//! events). Each command is a file of `commands`; moves and bots are in
//! `turns`, files in `files`, the Lua prompt in `lua_prompt`.
//!
//! A [`Session`] never prints: it collects lines in an [`Output`] that the
//! loop prints after each command (and unit tests read). Every failure is a
//! line of output, and the game is left as it was.

use super::autopass::AutoPass;
use super::cards;
use super::choose;
use super::vocabulary::{GameWords, Vocabulary};
use crate::commands::play::default_fill;
use crate::commands::setup::{clock_seed, default_players};
use crate::render::Painter;
use crate::seats::{self, SeatSpec};
use deckhand_bots::{Bot, BotKind};
use deckhand_engine::lua::PromptEnv;
use deckhand_engine::{
    secret_text, Cancel, Choice, CoreError, Engine, Event, Game, GameConfig, ScriptLibrary, Seat,
};
use serde_json::Value;
use std::sync::Arc;

/// Lines to print, with colour for errors when colour is on.
#[derive(Debug, Default)]
pub struct Output {
    lines: Vec<String>,
    colour: bool,
    /// Whether anything but an error was said since the last take: a
    /// command that only says errors was refused and changed nothing.
    said: bool,
    /// Hot-seat: the device passes to another person before line `.0`,
    /// where seat `.1`'s turn (and hand) is shown.
    handoff: Option<(usize, Seat)>,
    /// At a terminal: prints lines at once, for what a command shows
    /// while it still runs (a move before the bots think about theirs).
    live: Option<fn(Vec<String>)>,
}

impl Output {
    /// Add a line (or several, separated by newlines).
    pub fn say(&mut self, text: impl Into<String>) {
        self.said = true;
        self.lines.push(text.into());
    }

    /// Add a one-line error message: the command was refused, or a part of
    /// it failed.
    pub fn error(&mut self, text: impl AsRef<str>) {
        let text = text.as_ref();
        self.lines.push(if self.colour {
            format!("\x1b[1;31m{text}\x1b[0m")
        } else {
            text.to_string()
        });
    }

    /// Hot-seat: the lines from here on are for `seat`'s eyes, and another
    /// person has been looking.
    pub fn hand_to(&mut self, seat: Seat) {
        self.handoff = Some((self.lines.len(), seat));
    }

    /// Print the lines said so far at once (at a terminal), rather than
    /// when the command is over: what comes next may take a while. Not
    /// once the terminal is to pass to another person.
    pub fn flush_live(&mut self) {
        if let (Some(print), None) = (self.live, self.handoff) {
            print(std::mem::take(&mut self.lines));
        }
    }

    /// Whether lines are printed as they are said (a terminal).
    pub fn is_live(&self) -> bool {
        self.live.is_some()
    }

    /// A problem with something that was done all the same (shown as an
    /// error is).
    pub fn warn(&mut self, text: impl AsRef<str>) {
        self.error(text);
        self.said = true;
    }
}

/// What the loop does after a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// Open the Lua prompt.
    LuaPrompt,
    /// List the games left unfinished (`None`) or resume one: the loop,
    /// which holds the autosaves, does it.
    Resume(Option<usize>),
    Quit,
}

/// The seats where a person plays.
pub(super) fn humans(seats: &[SeatSpec]) -> Vec<Seat> {
    (1..=seats.len() as Seat)
        .filter(|&s| matches!(seats.get(s as usize - 1), Some(SeatSpec::Human)))
        .collect()
}

/// `seat 2 (greedy)`, or `seat 1 (you)` when one person plays.
pub(super) fn label(seats: &[SeatSpec], seat: Seat) -> String {
    let spec = (seat as usize).checked_sub(1).and_then(|i| seats.get(i));
    match spec {
        Some(SeatSpec::Human) if humans(seats).len() == 1 => format!("seat {seat} (you)"),
        Some(spec) => format!("seat {seat} ({})", spec.name()),
        None => format!("seat {seat}"),
    }
}

/// Say the script events among `events` that every person at this
/// terminal may see, and what scripts printed.
pub(super) fn say_events(
    game: &Game,
    seats: &[SeatSpec],
    painter: &Painter,
    events: &[Event],
    out: &mut Output,
) {
    let humans = humans(seats);
    for e in events {
        let Some(text) = e.text() else { continue };
        if humans.iter().all(|&s| game.event_visible_to(e, s)) {
            out.say(format!("  {}", painter.paint_names(text)));
        }
    }
    for line in game.take_output() {
        out.say(format!("  [script] {line}"));
    }
}

/// The text of option `index` of the pending decision, as the people at
/// this terminal may see it once chosen (see [`shown_text`]).
pub(super) fn option_text(game: &Game, seats: &[SeatSpec], choice: &Choice) -> String {
    let chooser = game.pending().map(|p| p.0);
    game.choice_text(choice)
        .map(|(action, text)| shown_text(seats, chooser, &text, &action))
        .unwrap_or_else(|_| format!("option {}", choice.index))
}

/// The text of an option `chooser` chose, for the people at this
/// terminal: a secret option (`secret_text`) reads as the rules' public
/// text unless every person here is the chooser (or only bots play).
pub(super) fn shown_text(
    seats: &[SeatSpec],
    chooser: Option<Seat>,
    text: &str,
    action: &Value,
) -> String {
    match secret_text(action) {
        Some(public) if !humans(seats).iter().all(|&h| Some(h) == chooser) => public,
        _ => text.to_string(),
    }
}

/// A game being played, with who sits where.
pub(super) struct Current {
    pub game: Game,
    pub seats: Vec<SeatSpec>,
    pub bots: Vec<Option<Bot>>,
    pub painter: Painter,
    /// The human seat that chose last (hot-seat: whose view to show).
    pub last_human: Option<Seat>,
    /// The globals of the `lua` prompt for this game, made at its first
    /// line (a new game, `load` or `reload` starts afresh).
    pub lua_env: Option<PromptEnv>,
    /// The reaction windows passed without asking.
    pub autopass: AutoPass,
}

impl Current {
    pub fn new(game: Game, seats: Vec<SeatSpec>, colour: bool) -> Current {
        let bots = seats::bots(&seats, game.config().seed);
        let painter = Painter::new(&game, colour);
        Current {
            game,
            seats,
            bots,
            painter,
            last_human: None,
            lua_env: None,
            autopass: AutoPass::default(),
        }
    }

    /// Who sits at `seat` (1-based), if it exists.
    pub fn spec(&self, seat: Seat) -> Option<&SeatSpec> {
        (seat as usize)
            .checked_sub(1)
            .and_then(|i| self.seats.get(i))
    }

    pub fn is_human(&self, seat: Seat) -> bool {
        matches!(self.spec(seat), Some(SeatSpec::Human))
    }

    pub fn humans(&self) -> Vec<Seat> {
        humans(&self.seats)
    }

    /// `seat 2 (greedy)`, or `seat 1 (you)` when one person plays.
    pub fn label(&self, seat: Seat) -> String {
        label(&self.seats, seat)
    }

    /// The human seat to move, if a person must choose now.
    pub fn human_to_move(&self) -> Option<Seat> {
        self.game
            .pending()
            .map(|p| p.0)
            .filter(|&s| self.is_human(s))
    }

    /// Whose view the table is shown from: the person to move, else the
    /// last person who moved, else the first human seat; `None` (everything)
    /// when only bots play.
    pub fn viewer(&self) -> Option<Seat> {
        self.human_to_move()
            .or(self.last_human)
            .or_else(|| self.humans().first().copied())
    }

    /// Print the script events since the last call that every person at
    /// this terminal may see, and what scripts printed.
    pub fn events(&mut self, out: &mut Output) {
        let events = self.game.take_events();
        say_events(&self.game, &self.seats, &self.painter, &events, out);
    }

    /// The text of an option `chooser` chose, for the people at this
    /// terminal (see [`shown_text`]).
    pub fn shown_text(&self, chooser: Option<Seat>, text: &str, action: &Value) -> String {
        shown_text(&self.seats, chooser, text, action)
    }

    /// The table from the viewer's seat.
    pub fn table(&self) -> String {
        let viewer = self.viewer();
        let info = self.game.rules_info();
        let turn = match self.game.pending() {
            Some((s, _)) => format!("{} to play", self.label(s)),
            None => "game over".to_string(),
        };
        let title = format!("{} · {turn}", info.title);
        let status = self
            .game
            .status_lines(viewer.unwrap_or(1))
            .unwrap_or_else(|e| vec![format!("(the rules' status lines failed: {e})")]);
        match self.game.view(viewer) {
            Ok(view) => self.painter.table(&view, &title, &status),
            Err(e) => format!("cannot show the table: {e}"),
        }
    }

    /// The numbered legal moves, when the people at this terminal may see
    /// them: those of a person's seat, or of any seat when only bots play
    /// (a bot's options may be its hidden hand).
    pub fn moves(&self) -> Result<String, String> {
        if let Some((seat, _)) = self.game.pending() {
            if !self.is_human(seat) && !self.humans().is_empty() {
                return Err(self.not_yours(seat));
            }
        }
        match self.game.decision() {
            Ok(Some(d)) => {
                let notes: Vec<(usize, String)> = self
                    .card_options(&d)
                    .iter()
                    .map(|(o, min, max)| (o.index, cards::listing(o, *min, *max)))
                    .collect();
                let mut text = self.painter.options(&d, &notes);
                if let Some(kind) = &d.window {
                    text.push_str(&format!(
                        "\n(a `{kind}` window: `autopass {kind}` passes these for you, \
                         `autopass turn` every window until your turn)"
                    ));
                }
                Ok(text)
            }
            Ok(None) => Err("the game is over: type `new` to play again".into()),
            Err(e) => Err(format!("cannot list the moves: {e}")),
        }
    }

    /// The options of `d` that ask for a set of cards, with the names of
    /// their cards and how many to choose.
    pub fn card_options(
        &self,
        d: &deckhand_engine::DecisionView,
    ) -> Vec<(cards::CardOption, usize, usize)> {
        d.options
            .iter()
            .filter_map(|o| {
                let spec = deckhand_engine::OptionMeta::of(&o.action).choose?;
                let names = spec
                    .from
                    .iter()
                    .map(|&id| {
                        self.game
                            .card(id)
                            .map_or_else(|_| format!("card {id}"), |c| c.name)
                    })
                    .collect();
                Some((
                    cards::CardOption {
                        index: o.index,
                        text: o.text.clone(),
                        cards: names,
                    },
                    spec.min,
                    spec.max,
                ))
            })
            .collect()
    }

    /// Why the moves of a bot's seat are not shown.
    pub fn not_yours(&self, seat: Seat) -> String {
        format!(
            "it is {}'s turn, and its moves are its own (they may show its hand); \
             the bot could not move: change the seat with `seats {seat}=human`, `undo`, \
             or fix the script and `reload`",
            self.label(seat)
        )
    }

    /// The card of this game whose name `typed` is exactly (one in the hand
    /// of the seat to move first, when several cards share the name).
    pub fn card_named(&self, typed: &str) -> Option<u32> {
        let cards = self.game.cards().ok()?;
        let ids: Vec<u32> = cards
            .iter()
            .filter(|c| choose::same_name(typed, &c.name))
            .map(|c| c.id)
            .collect();
        let mine = self.human_to_move().and_then(|seat| {
            let view = self.game.view(Some(seat)).ok()?;
            ids.iter().copied().find(|id| {
                view.zones.iter().any(|z| {
                    z.owner == Some(seat) && z.cards.as_ref().is_some_and(|cs| cs.contains(id))
                })
            })
        });
        mine.or_else(|| ids.first().copied())
    }

    /// Whether `typed` starts with a word of a card name of this game (it
    /// was meant as a card, though no card has that name).
    pub fn looks_like_a_card(&self, typed: &str) -> bool {
        self.game.cards().is_ok_and(|cards| {
            cards
                .iter()
                .any(|c| choose::shares_first_word(typed, &c.name))
        })
    }

    /// Why `card` is not one of the moves of the seat to move: the rules'
    /// reason (`rules.why_not`), else the moves it has.
    pub fn why_not(&self, card: u32, named: &[choose::Named]) -> String {
        let name = self
            .game
            .card(card)
            .map(|c| c.name)
            .unwrap_or_else(|_| format!("card {card}"));
        let reason = self
            .game
            .pending()
            .and_then(|(seat, _)| self.game.why_not(seat, card).ok().flatten())
            .filter(|r| !r.trim().is_empty());
        if let Some(r) = reason {
            return format!("{name} is not one of your moves now: {r}");
        }
        let cards: Vec<&str> = named.iter().filter_map(|o| o.card.as_deref()).collect();
        if !named.is_empty() && cards.len() == named.len() {
            format!(
                "{name} is not one of your moves now: you may play {}",
                cards.join(", ")
            )
        } else {
            let texts: Vec<&str> = named.iter().map(|o| o.names[0].as_str()).collect();
            format!(
                "{name} is not one of your moves now: your moves are {}",
                texts.join(", ")
            )
        }
    }

    /// Every name of the legal moves (for completion and typed moves).
    pub fn named_moves(&self) -> Vec<choose::Named> {
        match self.game.decision() {
            Ok(Some(d)) => {
                choose::named_options(&d.options, |id| self.game.card(id).ok().map(|c| c.name))
            }
            _ => Vec::new(),
        }
    }
}

/// The state of the REPL.
pub struct Session {
    pub(super) library: Arc<ScriptLibrary>,
    pub(super) engine: Engine,
    pub(super) current: Option<Current>,
    pub(super) out: Output,
    pub(super) colour: bool,
    /// Completion words of every game, refreshed on reload.
    pub(super) words: Vec<GameWords>,
    /// The lines of a Lua chunk typed at the `lua` prompt that is not
    /// finished yet (a `function` without its `end`).
    pub(super) lua_pending: String,
    /// Set by Ctrl-C while a command runs: the search and the bots stop
    /// at their next check and the command says it was interrupted.
    pub(super) cancel: Cancel,
    /// The game (and scripts) as they were before the last `reload`, for
    /// `undo` right after it.
    pub(super) before_reload: Option<Reloaded>,
    /// The game (and scripts) that `undo` of a reload put aside, for `redo`.
    pub(super) after_reload: Option<Reloaded>,
    /// Hot-seat: the seat of the person who typed the command being run
    /// (whose view the screen showed before it), if known. A command that
    /// then shows another person's hand passes the terminal first.
    pub(super) looking: Option<Seat>,
}

/// One side of a `reload`: the scripts and the game under them, and the
/// game's log at that moment (`undo` and `redo` of the reload apply only
/// while the game stands there).
pub(super) struct Reloaded {
    pub engine: Engine,
    pub current: Current,
    /// The log of the game that replaced this one, when it did.
    pub at: Vec<deckhand_engine::ActionRecord>,
}

impl Session {
    /// A session over the scripts of `library`, with no game yet.
    pub fn new(library: Arc<ScriptLibrary>, colour: bool) -> anyhow::Result<Session> {
        let engine = Engine::new(library.clone())?;
        let mut s = Session {
            library,
            engine,
            current: None,
            out: Output {
                lines: Vec::new(),
                colour,
                said: false,
                handoff: None,
                live: None,
            },
            colour,
            words: Vec::new(),
            lua_pending: String::new(),
            cancel: Cancel::new(),
            before_reload: None,
            after_reload: None,
            looking: None,
        };
        s.words = s.game_words();
        Ok(s)
    }

    /// Add a line to the output (a message of the loop's own).
    pub fn say(&mut self, text: impl Into<String>) {
        self.out.say(text);
    }

    /// Print what a command has said so far with `print` whenever it is
    /// about to wait (a bot thinking), and show a line while a bot thinks.
    pub fn set_live(&mut self, print: fn(Vec<String>)) {
        self.out.live = Some(print);
    }

    /// Share the flag that Ctrl-C sets while a command runs.
    pub fn set_cancel(&mut self, cancel: Cancel) {
        self.cancel = cancel;
    }

    /// The lines to print since the last call.
    pub fn take_output(&mut self) -> Vec<String> {
        self.take_output_handoff().0
    }

    /// The lines to print since the last call, and where (before which
    /// line) the terminal passes to another person, and to which seat: the
    /// loop pauses there and clears the screen, so that the next hand is
    /// not shown below the last one.
    pub fn take_output_handoff(&mut self) -> (Vec<String>, Option<(usize, Seat)>) {
        self.out.said = false;
        (std::mem::take(&mut self.out.lines), self.out.handoff.take())
    }

    /// Whether the commands since the last [`Session::take_output`] said
    /// only errors (were refused): the game must then be as it was.
    #[cfg(test)]
    pub fn only_errors(&self) -> bool {
        !self.out.said
    }

    /// The prompt: the seat to move, or `deckhand>`.
    pub fn prompt(&self) -> String {
        match self.current.as_ref().and_then(Current::human_to_move) {
            Some(s) => format!("seat {s}> "),
            None => "deckhand> ".to_string(),
        }
    }

    /// The game in progress, if any.
    #[cfg(test)]
    pub fn game(&self) -> Option<&Game> {
        self.current.as_ref().map(|c| &c.game)
    }

    /// What tab completion may offer now.
    pub fn vocabulary(&self) -> Vocabulary {
        let cur = self.current.as_ref();
        Vocabulary {
            games: self.words.clone(),
            current: cur.map(|c| c.game.config().game.clone()),
            moves: cur
                .filter(|c| c.human_to_move().is_some())
                .map(|c| c.named_moves().into_iter().flat_map(|n| n.names).collect())
                .unwrap_or_default(),
        }
    }

    /// The game ids on the search path with what completion needs of them.
    pub(super) fn game_words(&self) -> Vec<GameWords> {
        self.game_ids()
            .into_iter()
            .map(|id| {
                let variants = self
                    .library
                    .list(&format!("{id}/variants"))
                    .into_iter()
                    .filter_map(|f| f.strip_suffix(".lua").map(str::to_string))
                    .collect();
                let (options, bots) = match self.engine.rules(&id, &[]) {
                    Ok(r) => (
                        r.info.options.keys().cloned().collect(),
                        // The script's bots and the strengths it names.
                        r.info
                            .bots
                            .iter()
                            .chain(r.info.strengths.keys())
                            .cloned()
                            .collect(),
                    ),
                    Err(_) => (Vec::new(), Vec::new()),
                };
                GameWords {
                    id,
                    variants,
                    options,
                    bots,
                }
            })
            .collect()
    }

    /// Folders of the search path that hold a game script.
    pub(super) fn game_ids(&self) -> Vec<String> {
        crate::commands::setup::game_ids(&self.library)
    }

    /// The first session's game: the default game with one person and bots.
    pub fn start_default(&mut self, game: &str, players: u32, bot: &str) {
        self.out
            .say("deckhand: card games whose rules are Lua scripts. Type `help` for the commands.");
        let info = match self.engine.rules(game, &[]) {
            Ok(r) => r.info.clone(),
            Err(e) => {
                self.out.error(format!("cannot start {game}: {e}"));
                self.out
                    .say("Type `games` to list the games and `new GAME` to start one.");
                return;
            }
        };
        let players = if (info.players.min..=info.players.max).contains(&players) {
            players
        } else {
            default_players(&info)
        };
        let fill = if info.bots.iter().any(|b| b == bot) {
            SeatSpec::Bot(BotKind::Script(bot.to_string()))
        } else {
            default_fill(&info)
        };
        self.out.say(format!(
            "Starting {}: {players} players, you at seat 1, {} bots at the others. \
             Type `new GAME` to start something else (`games` lists them).",
            info.title,
            fill.name()
        ));
        let cfg = GameConfig::new(game, players, clock_seed());
        self.start(cfg, vec![SeatSpec::Human], Some(fill));
    }

    /// Start a game; `fill` seats the players not in `specs` (default: the
    /// game's first bot). On failure, says why and keeps the current game.
    pub fn start(&mut self, cfg: GameConfig, specs: Vec<SeatSpec>, fill: Option<SeatSpec>) {
        if let Err(msg) = self.try_start(cfg, specs, fill) {
            self.out.error(msg);
        }
    }

    /// [`Session::start`], giving back the one-line reason a game could
    /// not start (the command line ends with it rather than open an empty
    /// REPL).
    pub fn try_start(
        &mut self,
        mut cfg: GameConfig,
        specs: Vec<SeatSpec>,
        fill: Option<SeatSpec>,
    ) -> Result<(), String> {
        // The house-rule files not read yet are read now, once: the game
        // keeps their text (see `GameConfig::sources`).
        if let Err(e) = cfg.read_house_rules(false) {
            return Err(format!("cannot start {}: {e}", cfg.game));
        }
        // Every game starts from rules loaded afresh (Engine::forget_rules).
        self.engine.forget_rules();
        let info = match self.engine.rules_of(&cfg) {
            Ok(r) => r.info.clone(),
            Err(e) => {
                return Err(self.explain_rules_error(&cfg.game, e));
            }
        };
        let fill = fill.unwrap_or_else(|| default_fill(&info));
        let specs = match seats::complete(&specs, cfg.players, &fill, &info, seats::Table::People) {
            Ok(s) => s,
            Err(e) => return Err(format!("cannot start {}: {e}", cfg.game)),
        };
        let seed = cfg.seed;
        let game = match self.engine.new_game(cfg, true) {
            Ok(g) => g,
            Err(e) => return Err(format!("cannot start {}: {e}", info.id)),
        };
        let cur = Current::new(game, specs, self.colour);
        let seats_text: Vec<String> = (1..=cur.seats.len() as Seat)
            .map(|s| cur.label(s))
            .collect();
        let cfgv = cur.game.config();
        let variants = if cfgv.variants.is_empty() {
            String::new()
        } else {
            format!(", variants {}", cfgv.variants.join(" + "))
        };
        self.out.say(format!(
            "New game of {} ({} players{variants}, seed {seed}): {}.",
            info.title,
            cfgv.players,
            seats_text.join(", ")
        ));
        self.forget_reloads();
        self.current = Some(cur);
        self.advance();
        Ok(())
    }

    /// A one-line message for a game that cannot be composed (the same
    /// as the command line's).
    pub(super) fn explain_rules_error(&self, game: &str, e: CoreError) -> String {
        crate::commands::setup::explain_rules_error(&self.library, game, e, "games")
    }

    pub(super) fn no_game(&mut self) {
        self.out
            .error("no game in progress: type `new GAME` to start one (`games` lists them)");
    }
}

/// `""` for one, `"s"` otherwise.
pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
