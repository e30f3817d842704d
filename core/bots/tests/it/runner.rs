//! The runner on the toy game: observers see every start, decision, step
//! and end in order; a seat without a chooser stops play; the step limit
//! and a failing step are reported with their step and seat.

use crate::toy;

use deckhand_bots::{Bot, BotKind};
use deckhand_engine::{
    Choice, Engine, Event, Game, GameConfig, GameResult, Observer, Runner, Seat, Stop,
};

fn engine(extra: &[(&str, &str)]) -> Engine {
    Engine::new(toy::library(extra)).expect("engine")
}

/// Writes down what it is told, in order.
#[derive(Default)]
struct Log(Vec<String>);

impl Observer for Log {
    fn game_start(&mut self, game: &Game, events: &[Event]) -> deckhand_engine::Result<()> {
        self.0.push(format!(
            "start {} players, {} setup events",
            game.config().players,
            events.len()
        ));
        Ok(())
    }
    fn decision(
        &mut self,
        game: &Game,
        seat: Seat,
        choice: &Choice,
    ) -> deckhand_engine::Result<()> {
        let d = game.decision()?.expect("still pending");
        assert_eq!(d.seat, seat);
        self.0
            .push(format!("seat {seat} picks {choice} of {}", d.options.len()));
        Ok(())
    }
    fn step(
        &mut self,
        _: &Game,
        seat: Seat,
        _: &Choice,
        events: &[Event],
    ) -> deckhand_engine::Result<()> {
        self.0
            .push(format!("seat {seat} moved, {} events", events.len()));
        Ok(())
    }
    fn game_end(&mut self, _: &Game, result: &GameResult) -> deckhand_engine::Result<()> {
        self.0.push(format!("end, winners {:?}", result.winners));
        Ok(())
    }
}

#[test]
fn observers_see_every_decision_step_and_the_end_in_order() {
    let e = engine(&[]);
    let mut log = Log::default();
    let (game, result) = Runner::random(2, 7)
        .observe(&mut log)
        .run(&e, GameConfig::new("high_card", 2, 7), true)
        .expect("a whole game");
    assert!(game.is_over());
    assert_eq!(game.history().len(), 6);
    let lines = &log.0;
    // start, then a decision and a step for each of 6 moves, then the end.
    assert_eq!(lines.len(), 1 + 6 * 2 + 1, "{lines:#?}");
    assert!(lines[0].starts_with("start 2 players, "), "{lines:#?}");
    assert!(lines[1].starts_with("seat 1 picks "), "{lines:#?}");
    assert!(lines[2].starts_with("seat 1 moved, "), "{lines:#?}");
    assert_eq!(
        lines.last().expect("end"),
        &format!("end, winners {:?}", result.winners)
    );
    // Each move logs at least its card moving.
    assert!(lines
        .iter()
        .filter(|l| l.contains(" moved, "))
        .all(|l| !l.ends_with(" 0 events")));
}

#[test]
fn the_same_seed_and_bots_play_the_same_game() {
    let e = engine(&[]);
    let play = || {
        Runner::random(3, 11)
            .run(&e, GameConfig::new("high_card", 3, 11), false)
            .expect("game")
            .0
            .history()
            .to_vec()
    };
    assert_eq!(play(), play());
}

#[test]
fn a_seat_without_a_chooser_stops_play_until_its_choice_is_applied() {
    let e = engine(&[]);
    let mut runner = Runner::new(vec![None, Some(Box::new(Bot::new(BotKind::Random, 1, 2)))]);
    let mut game = runner
        .start(&e, GameConfig::new("high_card", 2, 1), true)
        .expect("start");
    assert_eq!(runner.play(&mut game).expect("play"), Stop::Waiting(1));
    runner.apply(&mut game, 1).expect("the person's move");
    // The bot moved, and it is the person's turn again.
    assert_eq!(runner.play(&mut game).expect("play"), Stop::Waiting(1));
    assert_eq!(game.history().len(), 2);
}

#[test]
fn the_step_limit_stops_a_game_that_never_ends() {
    let e = engine(&[]);
    let err = Runner::random(2, 1)
        .max_steps(3)
        .run(&e, GameConfig::new("high_card", 2, 1), false)
        .err()
        .expect("limit");
    assert_eq!(err.step, 4);
    assert!(
        err.to_string().contains("did not end within 3 decisions"),
        "{err}"
    );
}

#[test]
fn the_rules_may_declare_their_step_limit() {
    let limited = r#"
return { id = "short", title = "Short", game = "high_card",
  modify = function(R) R.max_steps = 2 end }
"#;
    let e = engine(&[("high_card/variants/short.lua", limited)]);
    let err = Runner::random(2, 1)
        .run(
            &e,
            GameConfig::new("high_card", 2, 1).variant("short"),
            false,
        )
        .err()
        .expect("limit");
    assert!(err.to_string().contains("within 2 decisions"), "{err}");
}

#[test]
fn a_failing_step_names_its_step_and_seat_and_leaves_the_game_as_it_was() {
    let e = engine(&[]);
    let mut runner = Runner::random(2, 5);
    let mut game = runner
        .start(
            &e,
            GameConfig::new("high_card", 2, 5).option("boom_at", 3),
            true,
        )
        .expect("start");
    let err = runner.play(&mut game).expect_err("boom");
    assert_eq!((err.step, err.choosing), (3, false));
    assert!(err.to_string().contains("boom"), "{err}");
    assert_eq!(game.history().len(), 2);
}

#[test]
fn a_cancelled_runner_or_search_stops_and_leaves_the_game_as_it_was() {
    use deckhand_engine::{Cancel, CoreError};
    let e = engine(&[]);
    let cancel = Cancel::new();
    // A bot whose flag is set stops before its first playout.
    let mut bot = Bot::new(BotKind::parse("mc:50"), 1, 1);
    bot.set_cancel(Some(cancel.clone()));
    let mut runner = Runner::new(vec![
        Some(Box::new(bot)),
        Some(Box::new(Bot::new(BotKind::Random, 1, 2))),
    ])
    .cancel(cancel.clone());
    let mut game = runner
        .start(&e, GameConfig::new("high_card", 2, 1), true)
        .expect("start");
    // Not cancelled: the game is played to its end.
    assert!(matches!(runner.play(&mut game), Ok(Stop::Over(_))));
    let mut game = runner
        .start(&e, GameConfig::new("high_card", 2, 1), true)
        .expect("start");
    let _ = game.take_events();
    cancel.cancel();
    let err = runner.play(&mut game).expect_err("cancelled");
    assert!(matches!(err.error, CoreError::Cancelled), "{err}");
    assert_eq!((err.step, err.seat), (1, 1));
    assert!(game.history().is_empty());
    // The hint's search too; once the flag is reset, it runs.
    assert!(matches!(
        deckhand_bots::search::hint(&game, 50, Some(&cancel)),
        Err(CoreError::Cancelled)
    ));
    cancel.reset();
    assert!(deckhand_bots::search::hint(&game, 50, Some(&cancel)).is_ok());
    assert!(matches!(runner.play(&mut game), Ok(Stop::Over(_))));
}

/// A game whose every step raises an event saying whether its words are
/// read (`game.words`), with a text only when they are.
const WORDY: &str = r#"
local R = { id = "wordy", title = "Wordy", players = { min = 1, max = 2 } }
function R.setup(game)
  game.vars.steps = 0
  if game.logging then
    game:event("setup", { words = game.words, text = game.words and "set up" or nil })
  end
end
function R.decision(game)
  if game.vars.steps >= 3 then return nil end
  return { seat = 1, options = { { n = 1 }, { n = 2 } } }
end
function R.apply(game, seat, action)
  game.vars.steps = game.vars.steps + 1
  if game.logging then
    game:event("stepped", { words = game.words, text = game.words and ("step " .. game.vars.steps) or nil })
  end
end
function R.result(game) return { scores = { 0 }, winners = {}, rounds = 1 } end
return R
"#;

/// Every event's (words, text) since the last call.
fn said(game: &mut Game) -> Vec<(bool, Option<String>)> {
    game.take_events()
        .iter()
        .filter_map(|e| match &e.kind {
            deckhand_engine::EventKind::Script { data, .. } => Some((
                data["words"].as_bool().expect("words"),
                e.text().map(str::to_string),
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn a_traced_game_records_its_events_without_their_words() {
    let e = engine(&[("wordy/game.lua", WORDY)]);
    let cfg = || GameConfig::new("wordy", 1, 1);
    // Logging for people (the REPL, saves): events with their texts.
    let mut game = e.new_game(cfg(), true).expect("game");
    assert_eq!(said(&mut game), [(true, Some("set up".into()))]);
    game.apply(1).expect("step");
    assert_eq!(said(&mut game), [(true, Some("step 1".into()))]);
    // For a trace: the same events, without texts, and the script knew.
    let mut game = e.new_traced_game(cfg()).expect("game");
    assert_eq!(said(&mut game), [(false, None)]);
    game.apply(2).expect("step");
    game.apply(1).expect("step");
    assert_eq!(said(&mut game), [(false, None), (false, None)]);
    // Undone and redone (the game rebuilt from its log): still without.
    assert!(game.undo().expect("undo"));
    assert!(game.redo().expect("redo"));
    game.apply(1).expect("step");
    assert_eq!(said(&mut game), [(false, None)]);
    // Not logging: no events at all.
    let mut game = e.new_game(cfg(), false).expect("game");
    game.apply(1).expect("step");
    assert!(said(&mut game).is_empty());
}
