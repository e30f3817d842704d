use deckhand_core::lua::Limits;
use deckhand_core::{Bot, BotKind, DirSource, Engine, GameConfig, Runner, ScriptLibrary};
use std::sync::Arc;
#[test]
fn scratch() {
    let budget: u64 = std::env::var("B").unwrap().parse().unwrap();
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(DirSource::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scripts"
    ))));
    let e = Engine::with_limits(
        Arc::new(lib),
        Limits {
            instructions: Some(budget),
            ..Limits::default()
        },
    )
    .unwrap();
    for (game, players, bots) in [
        ("sea_change", 4, vec!["greedy"]),
        ("sea_change", 1, vec![]),
        ("seas_of_strife", 6, vec!["greedy"]),
        ("sea_salt_paper", 4, vec!["greedy"]),
        ("seadogs", 6, vec!["greedy"]),
        ("seadogs", 2, vec!["greedy"]),
    ] {
        for seed in 0..6u64 {
            let cfg = GameConfig::new(game, players, seed);
            let mut g = match e.new_game(cfg, true) {
                Ok(g) => g,
                Err(err) => {
                    println!("{game} {players} setup {seed}: {err}");
                    continue;
                }
            };
            let info = g.rules_info().bots.clone();
            let kinds: Vec<BotKind> = (0..players)
                .map(|s| match s % 3 {
                    0 => BotKind::Random,
                    1 => info
                        .first()
                        .map(|b| BotKind::parse(b))
                        .unwrap_or(BotKind::Random),
                    _ => info
                        .first()
                        .map(|b| BotKind::parse(&format!("mc:10:{b}")))
                        .unwrap_or(BotKind::parse("mc:10")),
                })
                .collect();
            let _ = &bots;
            let bots: Vec<Bot> = kinds
                .into_iter()
                .enumerate()
                .map(|(i, k)| Bot::new(k, seed, i as u32 + 1))
                .collect();
            if let Err(err) = Runner::with_bots(bots).play(&mut g) {
                println!("{game} {players} {seed}: {err}");
            }
        }
    }
}
