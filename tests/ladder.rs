//! `deckhand ladder`: bots rated at mixed tables, checked on toy games
//! whose order of strength is known (tests/fixtures/lab: `nim`, pure
//! skill at two players; `push`, skill and luck at three; `coin_flip`,
//! pure chance), identical bots, shards merged into the one-run report,
//! the page, and the errors.

use crate::common::lab::{deckhand, merge_json, ok, shard, text, untimed};
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    serde_json::from_slice(&ok(&all)).expect("JSON")
}

/// The rating row of `bot`.
fn bot<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["ratings"]["bots"]
        .as_array()
        .and_then(|b| b.iter().find(|x| x["name"] == name))
        .unwrap_or_else(|| panic!("no bot {name} in {r}"))
}

/// The pair row of `a − b` (a rated higher).
fn pair<'a>(r: &'a Value, a: &str, b: &str) -> &'a Value {
    r["ratings"]["pairs"]
        .as_array()
        .and_then(|p| p.iter().find(|x| x["a"] == a && x["b"] == b))
        .unwrap_or_else(|| panic!("no pair {a} − {b} in {r}"))
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Bot names in rating order, best first.
fn order(r: &Value) -> Vec<String> {
    r["ratings"]["bots"]
        .as_array()
        .map(|b| {
            b.iter()
                .map(|x| x["name"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn nim_rates_random_below_greedy_below_the_search_each_step_decided() {
    let r = json(&[
        "ladder", "nim", "--bot", "random", "--bot", "greedy", "--bot", "mc:100", "-n", "40", "-j",
        "2",
    ]);
    assert_eq!(r["ratings"]["model"], "bradley-terry");
    assert_eq!(r["ratings"]["anchor"], "random");
    assert_eq!(order(&r), vec!["mc:100", "greedy", "random"]);
    // Every pair of three bots, both seat orders: 6 tables on 40 deals.
    assert_eq!(r["tables"].as_array().map(Vec::len), Some(6));
    assert_eq!(r["games"], 240);
    let random = bot(&r, "random");
    assert_eq!(num(&random["rating"]), 0.0);
    assert_eq!(random["anchor"], true);
    for b in ["random", "greedy", "mc:100"] {
        // Each bot sits at 4 of the 6 tables.
        assert_eq!(bot(&r, b)["games"], 160, "{b}");
    }
    for (a, b) in [
        ("greedy", "random"),
        ("mc:100", "greedy"),
        ("mc:100", "random"),
    ] {
        let p = pair(&r, a, b);
        assert_eq!(p["decided"], true, "{a} − {b}: {p}");
        assert!(num(&p["low"]) > 0.0, "{p}");
        assert!(num(&p["share"]) > 0.5, "{p}");
    }
    let g = bot(&r, "greedy");
    assert!(num(&g["low"]) <= num(&g["rating"]) && num(&g["rating"]) <= num(&g["high"]));
}

#[test]
fn push_at_three_players_is_rated_by_plackett_luce_in_the_known_order() {
    // Four bots at three seats: every set of 3 in every order (4 × 6).
    let r = json(&[
        "ladder",
        "push",
        "-p",
        "3",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--bot",
        "mc:100",
        "--bot",
        "mc:100:greedy",
        "-n",
        "30",
        "-j",
        "2",
    ]);
    assert_eq!(r["ratings"]["model"], "plackett-luce");
    assert_eq!(r["tables"].as_array().map(Vec::len), Some(24));
    assert_eq!(r["games"], 720);
    assert_eq!(
        order(&r).first().map(String::as_str),
        Some("mc:100:greedy"),
        "{r}"
    );
    assert_eq!(order(&r).last().map(String::as_str), Some("random"), "{r}");
    // The search whose playouts the greedy bot plays improves on it; with
    // random playouts it beats random only.
    for (a, b) in [
        ("greedy", "random"),
        ("mc:100:greedy", "greedy"),
        ("mc:100", "random"),
    ] {
        assert_eq!(pair(&r, a, b)["decided"], true, "{a} − {b}");
    }
}

#[test]
fn identical_bots_get_ratings_whose_interval_covers_equality() {
    // Two copies of one bot: named apart, rated apart. Every order of
    // every table is played, so each game of one copy has its twin with
    // the copies' seats swapped, on the same deal: the ratings are equal.
    let r = json(&[
        "ladder", "push", "-p", "3", "--bot", "mc:30", "--bot", "mc:30", "--bot", "greedy",
        "--bot", "random", "-n", "20", "-j", "2",
    ]);
    let (a, b) = (bot(&r, "mc:30"), bot(&r, "mc:30 #2"));
    assert_eq!(num(&a["rating"]), num(&b["rating"]), "{r}");
    assert!(num(&a["high"]) > num(&a["low"]), "{a}");
    let p = pair(&r, "mc:30", "mc:30 #2");
    assert_eq!(p["decided"], false, "{p}");
    assert!(num(&p["low"]) <= 0.0 && 0.0 <= num(&p["high"]), "{p}");
    // A game of pure chance decided by the deal alone: on the same deals
    // every bot wins the same games, so the ratings are exactly equal.
    let r = json(&[
        "ladder",
        "coin_flip",
        "-p",
        "2",
        "--bot",
        "random",
        "--bot",
        "mc:5",
        "-n",
        "20",
    ]);
    let m = bot(&r, "mc:5");
    assert_eq!(
        (num(&m["rating"]), num(&m["low"]), num(&m["high"])),
        (0.0, 0.0, 0.0)
    );
    assert_eq!(pair(&r, "random", "mc:5")["decided"], false);
}

#[test]
fn a_ladder_split_into_shards_merges_into_the_one_run_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let args = [
        "ladder", "nim", "--bot", "random", "--bot", "greedy", "--bot", "mc:20", "-n", "15",
        "--seed", "5",
    ];
    let mut whole_args = args.to_vec();
    whole_args.push("--json");
    let whole = untimed(&ok(&whole_args));
    let mut files: Vec<String> = (1..=3).map(|k| shard(dir.path(), &args, k, 3)).collect();
    files.reverse();
    assert_eq!(untimed(&merge_json(&files)), whole);
    files.reverse();
    assert_eq!(whole["deals"], 15);
    assert_eq!(whole["first_seed"], 5);
    // A shard of another ladder does not merge.
    let other = dir.path().join("other.json");
    let mut b = args.to_vec();
    b[7] = "mc:21";
    b.extend(["--shard", "3/3"]);
    std::fs::write(&other, ok(&b)).expect("write");
    let o = deckhand(&["merge", &files[0], &files[1], &other.display().to_string()]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("another run"), "{}", text(&o));
}

#[test]
fn the_text_and_the_page_name_the_model_the_anchor_and_the_interval() {
    let dir = tempfile::tempdir().expect("temp dir");
    let page = dir.path().join("ladder.html");
    let page_arg = page.display().to_string();
    let out = ok(&[
        "ladder", "nim", "--bot", "greedy", "--bot", "random", "-n", "10", "--html", &page_arg,
    ]);
    let out = String::from_utf8_lossy(&out);
    for want in [
        "Bradley-Terry",
        "random fixed at 0",
        "cluster-robust (sandwich) over deals",
        "95% interval",
        "greedy − random",
        "1 drawn game between every two bots",
    ] {
        assert!(out.contains(want), "no '{want}' in:\n{out}");
    }
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(
        html.contains("<svg") && html.contains("greedy − random"),
        "{html}"
    );
    assert!(!html.contains("<script"), "{html}");
}

#[test]
fn a_ladder_refuses_what_it_cannot_rate() {
    let fails = |args: &[&str]| {
        let o = deckhand(args);
        assert!(!o.status.success(), "{args:?} should fail");
        text(&o)
    };
    let e = fails(&["ladder", "nim", "--bot", "random"]);
    assert!(e.contains("two bots or more"), "{e}");
    let e = fails(&["ladder", "nim", "--bot", "random", "--bot", "human"]);
    assert!(e.contains("needs bots"), "{e}");
    let e = fails(&["ladder", "nim", "--bot", "random", "--bot", "clever"]);
    assert!(e.contains("no bot named 'clever'"), "{e}");
    let e = fails(&[
        "ladder", "nim", "--bot", "random", "--bot", "greedy", "-n", "1",
    ]);
    assert!(e.contains("2 deals or more"), "{e}");
    let many: Vec<String> = (1..=20).map(|i| format!("mc:{i}")).collect();
    let mut args = vec!["ladder", "push", "-p", "4"];
    // 20 bots at 4 players: 4845 sets of 4, 24 orders each.
    for m in &many {
        args.extend(["--bot", m.as_str()]);
    }
    let e = fails(&args);
    assert!(
        e.contains("116280 tables") && e.contains("at most 720"),
        "{e}"
    );
}
