//! SeaDogs' Sell island offers a sale of a cargo type exactly when some
//! choice of its cards is a legal sale, also when the bank cannot pay more
//! than a little (option `bank_short = "no_sale"`), where more cards may be
//! a sale the bank refuses: scenarios run with `deckhand lua`, as a player
//! would set the position up.

use crate::common;

use common::deckhand;
use std::path::Path;

/// Run the scenario `lua` against a 2-player SeaDogs game with `options`;
/// its standard output, after checking that it succeeded.
fn run(dir: &Path, lua: &str, options: &[&str]) -> String {
    let file = dir.join("scenario.lua");
    std::fs::write(&file, lua).expect("write the scenario");
    let mut args = vec![
        "lua",
        file.to_str().expect("utf-8 path"),
        "--game",
        "seadogs",
        "-p",
        "2",
    ];
    for o in options {
        args.extend(["-o", o]);
    }
    let out = deckhand(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "the scenario failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Seat 1 holds `cards` (and, with `market`, the Black Market), the bank
/// 1 gold (the rest of it given to seat 2), and sails to Sell; the moves
/// it then has are printed.
fn at_sell(cards: &[&str], market: bool) -> String {
    let names: Vec<String> = cards.iter().map(|c| format!("{c:?}")).collect();
    let market = if market {
        "scenario.give(1, { \"Black Market\" }, \"action\")\n"
    } else {
        ""
    };
    format!(
        "scenario.give(1, {{ {} }})\n{market}\
         scenario.play(1) -- a captain each\n\
         scenario.play(1)\n\
         local v = game.vars\n\
         v.gold[2] = v.gold[2] + v.bank - 1\n\
         v.bank = 1\n\
         print(\"hand: \" .. table.concat(scenario.cards(\"hand\", 1), \", \"))\n\
         scenario.play(\"Sail to Sell (sell cards of one cargo type for gold)\")\n\
         print(\"moves: \" .. table.concat(scenario.moves(), \" | \"))\n",
        names.join(", ")
    )
}

fn moves(out: &str) -> Vec<String> {
    out.lines()
        .find_map(|l| l.strip_prefix("moves: "))
        .unwrap_or_else(|| panic!("no moves listed in:\n{out}"))
        .split(" | ")
        .map(str::to_string)
        .collect()
}

/// The bank at 1 gold: with Silk x1, Silk x2 and a Wild and the Black
/// Market, a Wild alone (2 icons) or with Silk x1 (3 icons) is a sale of
/// 1 gold, though the Wild with Silk x2 (4 icons, 3 gold) is not; the
/// sale is offered, and it can be made.
#[test]
fn a_sale_the_bank_can_pay_is_offered_when_more_cards_would_pay_too_much() {
    let dir = tempfile::tempdir().expect("tmp");
    let no_sale = ["bank_short=no_sale"];
    let lua = at_sell(&["Silk x1", "Silk x2", "Wild"], true);
    let out = run(dir.path(), &lua, &no_sale);
    assert!(out.contains("hand: Silk x1, Silk x2, Wild"), "{out}");
    let offered = moves(&out);
    assert!(
        offered.iter().any(|m| m == "Sell Silk with Black Market"),
        "{out}"
    );
    // The sale is one the rules accept.
    let sold = run(
        dir.path(),
        &format!(
            "{lua}print(\"sold: \" .. scenario.play(\"Sell Silk with Black Market\", \
             {{ \"Wild\", \"Silk x1\" }}))\n"
        ),
        &no_sale,
    );
    assert!(
        sold.contains("sold: Sell Silk x1, Wild (3 icons: 1 gold) with Black Market"),
        "{sold}"
    );
    // The same under wild_in_sale without the Black Market: Silk x1 and a
    // Wild (2 icons) pay 1 gold, all four cards (4 icons) 3.
    let out = run(
        dir.path(),
        &at_sell(&["Silk x1", "Wild", "Wild", "Wild"], false),
        &["bank_short=no_sale", "wild_in_sale=true"],
    );
    assert!(out.contains("hand: Silk x1, Wild, Wild, Wild"), "{out}");
    assert!(moves(&out).iter().any(|m| m == "Sell Silk"), "{out}");
}

/// Many hands, banks and ways of selling: the Sell options are exactly the
/// types (and ways) some choice of cards sells, every choice tried with the
/// rules' own check (`rules.sale_value`).
const EVERY_CHOICE: &str = r#"
local R = game.rules
local cargo = {}
for id = 1, #game.cards do
  if game.cards[id].cargo ~= nil then cargo[#cargo + 1] = id end
end
local x = 12345
local function rand(n) x = (x * 16807) % 2147483647; return x % n + 1 end
local v = game.vars
local pool = v.bank + v.gold[2]
local checked, offered = 0, 0
for trial = 1, 300 do
  local names, used = {}, {}
  while #names < 5 do
    local id = cargo[rand(#cargo)]
    if not used[id] then used[id] = true; names[#names + 1] = game.cards[id].name end
  end
  scenario.give(1, names)
  scenario.give(1, { trial % 2 == 0 and "Black Market" or "Spyglass" }, "action")
  v.bank = rand(7) - 1
  v.gold[2] = pool - v.bank
  local hand = game:zone("hand", 1)
  local shown = {}
  for _, o in ipairs(R.sale_options(game, 1)) do shown[o.cargo .. (o.market and "+" or "")] = true end
  for _, way in ipairs(R.sale_wilds(game, 1)) do
    for _, t in ipairs(R.CARGO_TYPES) do
      local some = false
      for mask = 1, 2 ^ #hand - 1 do
        local set, m = {}, mask
        for i = 1, #hand do
          if m % 2 == 1 then set[#set + 1] = hand[i] end
          m = math.floor(m / 2)
        end
        if R.sale_value(game, 1, t, set, way.market) then some = true; break end
      end
      local key = t .. (way.market and "+" or "")
      if some ~= (shown[key] == true) then
        error("hand " .. table.concat(scenario.cards("hand", 1), ", ") .. ", bank " .. v.bank
          .. ", " .. key .. ": a sale " .. (some and "exists" or "does not exist")
          .. " but the option is " .. (shown[key] and "offered" or "not offered"))
      end
      checked = checked + 1
      if some then offered = offered + 1 end
    end
  end
end
print("checked " .. checked .. " ways, " .. offered .. " offered")
"#;

#[test]
fn a_sale_is_offered_exactly_when_some_choice_of_cards_is_legal() {
    let dir = tempfile::tempdir().expect("tmp");
    for options in [
        &["bank_short=no_sale"][..],
        &["bank_short=no_sale", "wild_in_sale=true"],
        &["bank_short=pay_rest", "wild_in_sale=true"],
    ] {
        let out = run(dir.path(), EVERY_CHOICE, options);
        let line = out
            .lines()
            .find(|l| l.starts_with("checked "))
            .unwrap_or_else(|| panic!("{out}"));
        // Some ways were offered and some not: the check saw both.
        let counts: Vec<u64> = line
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        assert!(
            counts.len() == 2 && counts[1] > 0 && counts[1] < counts[0],
            "{line}"
        );
    }
}
