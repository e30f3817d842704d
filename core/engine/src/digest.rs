//! Which scripts a set of rules ran: for each script file, its name and a
//! hash of its text. Shards of one run are merged only when they ran the
//! same scripts (the lab's shard files), so a shard played with an edited
//! copy of a game file is refused by name rather than merged into numbers
//! of other rules.
//!
//! The hash is FNV-1a 64 over the text's bytes: stable across builds and
//! platforms, and any edit changes it but by a chance of about one in
//! 2^64. It tells accidental differences apart (an edited file, another
//! folder on the search path); it is not a defence against a text crafted
//! to collide, which is not what it guards against (the person merging
//! chose the shards).

use crate::lua::PRELUDE;
use mlua::Lua;

/// The text of the host's own guards (run in every VM before any rule,
/// like [`PRELUDE`]).
const GUARDS: &str = include_str!("lua/guards.lua");

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

/// The hash of a script's text as it is recorded: `fnv1a64:` and 16 hex
/// digits.
pub fn text_hash(text: &str) -> String {
    format!("fnv1a64:{:016x}", fnv1a64(text.as_bytes()))
}

/// A script file that ran: its name (a path on the scripts search path
/// such as `sea_change/game.lua`, a house rule's path as given, or
/// `deckhand/prelude.lua` for the host's own) and the hash of its text.
pub type ScriptHash = (String, String);

/// The host's own scripts, which run in every VM: the prelude and the
/// guards.
pub fn builtin_scripts() -> Vec<ScriptHash> {
    vec![
        ("deckhand/guards.lua".into(), text_hash(GUARDS)),
        ("deckhand/prelude.lua".into(), text_hash(PRELUDE)),
    ]
}

/// The scripts loaded while a set of rules is being composed (kept in
/// the VM's app data for that while).
#[derive(Debug, Default)]
pub(crate) struct ScriptLog(pub Vec<ScriptHash>);

/// Note that the script `name` with `text` was loaded, when a set of rules
/// is being composed in `lua` (nothing otherwise).
pub(crate) fn note(lua: &Lua, name: &str, text: &str) {
    if let Some(mut log) = lua.app_data_mut::<ScriptLog>() {
        log.0.push((name.to_string(), text_hash(text)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_its_published_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(text_hash("a"), "fnv1a64:af63dc4c8601ec8c");
    }
}
