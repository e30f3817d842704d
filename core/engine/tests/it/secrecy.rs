//! Secrets, on a toy game defined here: a pile that shows only its top card,
//! a secret look through it, a card stolen from hand to hand, and secret
//! options. What each seat's view and events reveal.

use deckhand_engine::{secret_text, Engine, EventKind, GameConfig, MemorySource, ScriptLibrary};
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Cards 1-4 on a "top" pile (4 on top); seat 3 holds card 5. Seat 1 first
/// takes a card from the pile, secretly ("dig") or the top card ("top");
/// then seat 1 steals card 5 from seat 3's hand.
const PILE_GAME: &str = r#"
local R = { id = "pile_game", title = "Pile game", players = { min = 3, max = 3 } }
function R.setup(game)
  local pile = game:new_zone("pile", { visibility = "top" })
  for s = 1, game.seats do game:new_zone("hand", { owner = s, visibility = "owner" }) end
  for v = 1, 5 do
    local id = game:new_card({ name = "C" .. v })
    game:place(id, v <= 4 and pile or game:zone("hand", 3))
  end
  game.vars.step = 1
end
function R.decision(game)
  local v = game.vars
  if v.step == 1 then
    local pile = game:zone("pile")
    return { seat = 1, prompt = "Take", options = {
      { act = "dig", card = pile[2], secret = "takes a card from the pile" },
      { act = "top", card = pile[#pile] },
      { act = "other", secret = true },
    } }
  elseif v.step == 2 then
    return { seat = 1, prompt = "Steal", options = { { act = "steal" } } }
  end
  return nil
end
function R.apply(game, seat, action)
  local v = game.vars
  if v.step == 1 and action.card then
    game:move(action.card, game:zone("pile"), game:zone("hand", 1))
  elseif v.step == 2 then
    game:move(game:zone("hand", 3)[1], game:zone("hand", 3), game:zone("hand", 1))
  end
  v.step = v.step + 1
end
return R
"#;

fn engine() -> Engine {
    let mut files = BTreeMap::new();
    files.insert("pile_game/game.lua".to_string(), PILE_GAME.to_string());
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(MemorySource::new("test", files)));
    Engine::new(Arc::new(lib)).expect("engine")
}

#[test]
fn secret_options_say_what_the_others_are_told() {
    let e = engine();
    let g = e
        .new_game(GameConfig::new("pile_game", 3, 1), true)
        .expect("start");
    let d = g.decision().expect("decision").expect("pending");
    assert_eq!(
        d.options[0].secret().as_deref(),
        Some("takes a card from the pile")
    );
    assert_eq!(d.options[1].secret(), None);
    assert_eq!(
        d.options[2].secret().as_deref(),
        Some("makes a secret choice")
    );
    assert_eq!(secret_text(&json!({"secret": false})), None);
    assert_eq!(secret_text(&json!(3)), None);
}

#[test]
fn a_top_pile_shows_everyone_its_top_card_only() {
    let e = engine();
    let g = e
        .new_game(GameConfig::new("pile_game", 3, 1), true)
        .expect("start");
    assert!(
        g.rules_info().bots.is_empty(),
        "a game may have no script bot"
    );
    for seat in 1..=3 {
        let v = g.view(Some(seat)).expect("view");
        let pile = v.zones.iter().find(|z| z.name == "pile").expect("pile");
        assert_eq!(pile.count, 4);
        assert_eq!(pile.top, Some(4));
        assert_eq!(pile.cards, None);
    }
}

#[test]
fn a_card_taken_from_inside_a_top_pile_is_told_only_to_the_taker() {
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("pile_game", 3, 1), true)
        .expect("start");
    g.take_events();
    g.apply(1).expect("dig");
    let events = g.take_events();
    let mv = events
        .iter()
        .find(|ev| matches!(ev.kind, EventKind::Move { card: 2, .. }))
        .expect("the move of card 2");
    assert!(g.event_visible_to(mv, 1));
    assert!(!g.event_visible_to(mv, 2));
    assert!(!g.event_visible_to(mv, 3));
    // The others still see the same top, one card fewer.
    let v = g.view(Some(2)).expect("view");
    let pile = v.zones.iter().find(|z| z.name == "pile").expect("pile");
    assert_eq!((pile.count, pile.top), (3, Some(4)));
}

#[test]
fn a_card_stolen_from_hand_to_hand_is_told_to_both_owners_only() {
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("pile_game", 3, 1), true)
        .expect("start");
    g.apply(2).expect("take the top");
    g.take_events();
    g.apply(1).expect("steal");
    let events = g.take_events();
    let mv = events
        .iter()
        .find(|ev| matches!(ev.kind, EventKind::Move { card: 5, .. }))
        .expect("the move of card 5");
    assert!(g.event_visible_to(mv, 1), "the thief");
    assert!(g.event_visible_to(mv, 3), "the victim");
    assert!(!g.event_visible_to(mv, 2), "a third seat");
}
