//! Rules: a game script composed with its variants, and what they declare
//! (id, title, player range, options with defaults, bots).

use crate::digest::{ScriptHash, ScriptLog};
use crate::error::{CoreError, Result};
use crate::house_rule;
use crate::library::{ScriptLibrary, ScriptText};
use crate::lua::Host;
use mlua::{LuaSerdeExt, Table, Value};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::Path;

/// The declared player range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRange {
    pub min: u32,
    pub max: u32,
    /// The count used when none is given.
    #[serde(default)]
    pub default: Option<u32>,
}

/// One option: its default (whose type is the option's type), what it
/// does, the allowed values if limited, and the range of a number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OptionSpec {
    #[serde(default)]
    pub default: Json,
    #[serde(default)]
    pub doc: String,
    #[serde(default)]
    pub choices: Option<Vec<Json>>,
    /// The least number allowed (a number given as text, such as `40` for
    /// an option whose default is "auto", is checked too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// The greatest number allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
}

impl OptionSpec {
    /// The declared range in words (`1..20`, `at least 1`, `at most 9`),
    /// if any.
    pub fn range_text(&self) -> Option<String> {
        match (self.min, self.max) {
            (Some(lo), Some(hi)) => Some(format!("{}..{}", number(lo), number(hi))),
            (Some(lo), None) => Some(format!("at least {}", number(lo))),
            (None, Some(hi)) => Some(format!("at most {}", number(hi))),
            (None, None) => None,
        }
    }
}

/// A bound as people write it: `3`, not `3.0`.
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// What a composed rules table declares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RulesInfo {
    pub id: String,
    pub title: String,
    pub players: PlayerRange,
    #[serde(default)]
    pub options: BTreeMap<String, OptionSpec>,
    #[serde(default)]
    pub bots: Vec<String>,
    /// The script bot search playouts use unless told otherwise
    /// (`rules.playout_bot`; none: random moves).
    #[serde(default)]
    pub playout_bot: Option<String>,
    /// The most decisions a game may take before the runner stops it as
    /// one that never ends (`rules.max_steps`; none: the runner's default).
    #[serde(default)]
    pub max_steps: Option<usize>,
    /// A summary of the rules for players (`rules.summary`), if the game
    /// has one.
    #[serde(default)]
    pub summary: Option<String>,
    /// The metrics the game and its variants define (`rules.metrics`), by
    /// name: each game's value is computed at its end (see
    /// [`crate::Game::metrics`]).
    #[serde(default)]
    pub metrics: BTreeMap<String, MetricInfo>,
    /// The restrictions the rules define (`rules.restrictions`), by name,
    /// each with what it bars in words: filters on a measuring bot's
    /// options ([`crate::Game::allowed`]).
    #[serde(default)]
    pub restrictions: BTreeMap<String, String>,
    /// Bots named by a word (`rules.strengths`: `easy = "mc:25"` ...).
    #[serde(default)]
    pub strengths: BTreeMap<String, String>,
}

/// A metric as the rules declare it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricInfo {
    /// What it measures, in words.
    #[serde(default)]
    pub doc: String,
    /// Whether its value is a share (of rounds, of tricks ...): a number
    /// from 0 to 1, reported in percent as win rates are
    /// (`share = true`). A metric whose every value is a boolean is a
    /// share of games without saying so.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub share: bool,
}

/// A variant as listed by `deckhand games`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariantInfo {
    pub id: String,
    pub title: String,
    /// The game it changes, when it says.
    #[serde(default)]
    pub game: Option<String>,
    /// Options the variant adds to the game, or whose default or text it
    /// changes (filled in by the catalog).
    #[serde(default)]
    pub options: BTreeMap<String, OptionSpec>,
    /// The player range with this variant, when it narrows the game's.
    #[serde(default)]
    pub players: Option<PlayerRange>,
    /// The variants it builds on (`requires`), which must be applied
    /// before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<String>,
}

/// A game with its variants, as listed by `deckhand games`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameEntry {
    pub info: RulesInfo,
    pub variants: Vec<VariantInfo>,
}

/// A composed rules table and its declarations.
pub struct Rules {
    pub(crate) table: Table,
    pub info: RulesInfo,
    /// The metrics' value functions, sorted by name.
    pub(crate) metrics: Vec<(String, mlua::Function)>,
    /// Every script file that ran to compose these rules, in the order
    /// they were loaded: the game file, the variants and house rules, and
    /// the modules they required (see [`crate::digest`]).
    pub scripts: Vec<ScriptHash>,
}

impl Rules {
    /// Where the script bot `name` is defined, as `FILE:LINE` (the line of
    /// its `function`), for messages about a bot that failed; `None` when
    /// the rules have no such bot (or it is not a Lua function). Read raw:
    /// no script code runs.
    pub(crate) fn bot_position(&self, name: &str) -> Option<String> {
        let bots: Table = self.table.raw_get("bots").ok()?;
        let f: mlua::Function = bots.raw_get(name).ok()?;
        let info = f.info();
        let file = info
            .source
            .as_deref()
            .and_then(|s| s.strip_prefix('@'))
            .map(str::to_string)
            .or(info.short_src)?;
        Some(format!("{file}:{}", info.line_defined?))
    }
}

/// Where a game script lives on the search path.
pub fn game_path(game: &str) -> String {
    format!("{game}/game.lua")
}

/// Where a variant lives: a name under the game's `variants/`, or a
/// house-rule file. A house-rule file's text is `saved` (the copy in the
/// game's config) when there is one, else read from disk (a `.lua` regular
/// file only, see [`house_rule::read`]).
pub fn variant_text(
    library: &ScriptLibrary,
    game: &str,
    variant: &str,
    saved: Option<&str>,
) -> Result<ScriptText> {
    if house_rule::is_file(variant) {
        return match saved {
            Some(text) => Ok(ScriptText {
                chunk_name: variant.to_string(),
                text: text.to_string(),
            }),
            None => ScriptLibrary::read_file(Path::new(variant)),
        };
    }
    library
        .read(&format!("{game}/variants/{variant}.lua"))
        .ok_or_else(|| {
            CoreError::NotFound(format!(
                "variant '{variant}' of '{game}' (looked for {game}/variants/{variant}.lua)"
            ))
        })
}

/// Load a game script afresh and apply the variants in order; `sources`
/// holds the text of house-rule files (by path) that is used instead of
/// reading them.
///
/// Every script file that runs meanwhile is noted, with a hash of its
/// text, in the rules' [`Rules::scripts`].
pub fn compose(
    host: &Host,
    game: &str,
    variants: &[String],
    sources: &BTreeMap<String, String>,
) -> Result<Rules> {
    // Taken back whatever happens: a log is kept only while composing.
    let _ = host.lua.try_set_app_data(ScriptLog::default());
    let rules = compose_noting(host, game, variants, sources);
    let log = host.lua.remove_app_data::<ScriptLog>().unwrap_or_default();
    let mut rules = rules?;
    rules.scripts = log.0;
    Ok(rules)
}

fn compose_noting(
    host: &Host,
    game: &str,
    variants: &[String],
    sources: &BTreeMap<String, String>,
) -> Result<Rules> {
    for (i, v) in variants.iter().enumerate() {
        if variants[..i].contains(v) {
            return Err(CoreError::Invalid(format!(
                "variant '{v}' is given twice; each variant applies once"
            )));
        }
    }
    let lib = host.library();
    let text = lib.read(&game_path(game)).ok_or_else(|| {
        CoreError::NotFound(format!(
            "game '{game}' (no {game}/game.lua on the scripts search path)"
        ))
    })?;
    // One environment for the game and its variants: what they change in
    // their globals, library tables or modules stays with these rules.
    let env = host.new_env()?;
    crate::digest::note(&host.lua, &game_path(game), &text.text);
    let base = host.run_script(&text, &env)?;
    let list = host.lua.create_table()?;
    for (i, v) in variants.iter().enumerate() {
        let vt = variant_text(lib, game, v, sources.get(v).map(String::as_str))?;
        let name = if house_rule::is_file(v) {
            v.clone()
        } else {
            format!("{game}/variants/{v}.lua")
        };
        crate::digest::note(&host.lua, &name, &vt.text);
        list.raw_set(i + 1, host.run_script(&vt, &env)?)?;
    }
    host.arm();
    let table: Table = host.entry.compose.call((base, list))?;
    let info = read_info(host, &table)?;
    if info.id != game {
        return Err(CoreError::Script(format!(
            "{game}/game.lua declares id '{}'; the folder and the id must match",
            info.id
        )));
    }
    let pairs: Vec<Table> = host.entry.metric_functions.call(table.clone())?;
    let metrics = pairs
        .into_iter()
        .map(|p| Ok((p.raw_get::<String>(1)?, p.raw_get::<mlua::Function>(2)?)))
        .collect::<Result<Vec<_>>>()?;
    Ok(Rules {
        table,
        info,
        metrics,
        scripts: Vec::new(),
    })
}

fn read_info(host: &Host, table: &Table) -> Result<RulesInfo> {
    let v: Value = host.entry.info.call(table.clone())?;
    let json: Json = host.lua.from_value(v)?;
    let info: RulesInfo = serde_json::from_value(json)
        .map_err(|e| CoreError::Script(format!("game declaration is incomplete: {e}")))?;
    for (name, spec) in &info.options {
        if let (Some(lo), Some(hi)) = (spec.min, spec.max) {
            if lo > hi {
                return Err(CoreError::Script(format!(
                    "option {name} declares min {lo} above max {hi}"
                )));
            }
        }
        if spec.default.is_number() && check_range(name, spec, &spec.default).is_err() {
            return Err(CoreError::Script(format!(
                "option {name}: its default {} is outside its own range ({})",
                spec.default,
                spec.range_text().unwrap_or_default()
            )));
        }
    }
    Ok(info)
}

/// Read a variant's id and title (for listings).
pub fn variant_info(host: &Host, text: &ScriptText) -> Result<VariantInfo> {
    let v = host.run_script(text, &host.new_env()?)?;
    let Value::Table(t) = v else {
        return Err(CoreError::Script(format!(
            "{}: a variant must return a table",
            text.chunk_name
        )));
    };
    Ok(VariantInfo {
        id: t.get::<Option<String>>("id")?.unwrap_or_default(),
        title: t.get::<Option<String>>("title")?.unwrap_or_default(),
        game: t.get::<Option<String>>("game")?,
        options: BTreeMap::new(),
        players: None,
        requires: t
            .get::<Option<Vec<String>>>("requires")
            .map_err(|_| {
                CoreError::Script(format!(
                    "{}: `requires` must be a list of variant names",
                    text.chunk_name
                ))
            })?
            .unwrap_or_default(),
    })
}

impl RulesInfo {
    /// Read the value of option `name` as typed at a command line (`-o
    /// KEY=VALUE`) or the REPL (`KEY=VALUE`), by the option's declared type
    /// (its default's, or its choices' when it has no default): a number
    /// option reads a finite number (`nan`, `inf` and numbers beyond a
    /// float are refused, naming the option); a true-or-false option reads
    /// `true`/`on`/`yes` or `false`/`off`/`no`; a text option takes the
    /// text as it is (`nan`, `yes`, `007` stay those words). An option the
    /// rules do not declare is read by [`crate::config::parse_option_text`]
    /// ([`RulesInfo::resolve_options`] then names it as unknown).
    pub fn option_from_text(&self, name: &str, text: &str) -> Result<Json> {
        let Some(spec) = self.options.get(name) else {
            return Ok(crate::config::parse_option_text(text));
        };
        let declared = match &spec.default {
            Json::Null => spec
                .choices
                .iter()
                .flatten()
                .find(|c| !c.is_null())
                .unwrap_or(&Json::Null),
            d => d,
        };
        let like = if spec.default.is_null() {
            String::new()
        } else {
            format!(" like {}", spec.default)
        };
        match declared {
            Json::Number(_) => {
                if let Ok(i) = text.parse::<i64>() {
                    return Ok(Json::from(i));
                }
                match text.parse::<f64>() {
                    Ok(x) => serde_json::Number::from_f64(x)
                        .map(Json::Number)
                        .ok_or_else(|| {
                            CoreError::Invalid(format!(
                                "option {name}: {text} is not a number it can take: give a finite \
                             number{like}"
                            ))
                        }),
                    Err(_) => Err(CoreError::Invalid(format!(
                        "option {name}: expected a number{like}, got '{text}'"
                    ))),
                }
            }
            Json::Bool(_) => match text.to_ascii_lowercase().as_str() {
                "true" | "on" | "yes" => Ok(Json::Bool(true)),
                "false" | "off" | "no" => Ok(Json::Bool(false)),
                _ => Err(CoreError::Invalid(format!(
                    "option {name}: expected true or false (on/off, yes/no), got '{text}'"
                ))),
            },
            Json::String(_) => Ok(Json::String(text.to_string())),
            _ => Ok(crate::config::parse_option_text(text)),
        }
    }

    /// Resolve user options against the declared ones: unknown names, values
    /// of the wrong type (that of the default; a whole number when the
    /// default is one), values outside `choices` and numbers outside
    /// `min`..`max` are errors. Every way of starting a game goes through
    /// here.
    pub fn resolve_options(
        &self,
        given: &BTreeMap<String, Json>,
    ) -> Result<BTreeMap<String, Json>> {
        for name in given.keys() {
            if !self.options.contains_key(name) {
                let known: Vec<&str> = self.options.keys().map(String::as_str).collect();
                return Err(CoreError::Invalid(format!(
                    "'{}' has no option '{name}' (options: {})",
                    self.id,
                    known.join(", ")
                )));
            }
        }
        let mut out = BTreeMap::new();
        for (name, spec) in &self.options {
            let value = match given.get(name) {
                None => spec.default.clone(),
                Some(v) => coerce(name, &spec.default, v)?,
            };
            if let Some(choices) = &spec.choices {
                if !choices.contains(&value) {
                    let list: Vec<String> = choices.iter().map(|c| c.to_string()).collect();
                    return Err(CoreError::Invalid(format!(
                        "option {name}: {value} is not one of {}",
                        list.join(", ")
                    )));
                }
            }
            if given.contains_key(name) {
                check_range(name, spec, &value)?;
            }
            out.insert(name.clone(), value);
        }
        Ok(out)
    }
}

/// A number given for an option with a range must lie in it (a number
/// written as text counts as that number; other text is the script's to
/// judge, such as "auto").
fn check_range(name: &str, spec: &OptionSpec, value: &Json) -> Result<()> {
    let Some(range) = spec.range_text() else {
        return Ok(());
    };
    let x = match value {
        Json::Number(n) => n.as_f64(),
        Json::String(s) => s.trim().parse::<f64>().ok().filter(|x| x.is_finite()),
        _ => None,
    };
    let Some(x) = x else {
        return Ok(());
    };
    let low = spec.min.is_some_and(|lo| x < lo);
    let high = spec.max.is_some_and(|hi| x > hi);
    if low || high {
        let shown = match value {
            Json::String(s) => s.trim().to_string(),
            v => v.to_string(),
        };
        return Err(CoreError::Invalid(format!(
            "option {name}: {shown} is out of range (allowed: {range})"
        )));
    }
    Ok(())
}

fn coerce(name: &str, default: &Json, v: &Json) -> Result<Json> {
    let bad = || {
        CoreError::Invalid(format!(
            "option {name}: expected a value like {default}, got {v}"
        ))
    };
    let whole = |n: &serde_json::Number| n.is_i64() || n.is_u64();
    Ok(match (default, v) {
        (Json::Number(d), Json::Number(n)) if whole(d) && !whole(n) => {
            return Err(CoreError::Invalid(format!(
                "option {name}: expected a whole number, got {v}"
            )))
        }
        (Json::Number(_), Json::String(s))
            if s.trim().parse::<f64>().is_ok_and(|x| !x.is_finite()) =>
        {
            return Err(CoreError::Invalid(format!(
                "option {name}: {} is not a number it can take: give a finite number like \
                 {default}",
                s.trim()
            )))
        }
        (Json::Number(_), Json::Number(_)) | (Json::Bool(_), Json::Bool(_)) => v.clone(),
        (Json::String(_), Json::String(_)) => v.clone(),
        (Json::String(_), Json::Number(_) | Json::Bool(_)) => Json::String(v.to_string()),
        (Json::Null, _) => v.clone(),
        _ => return Err(bad()),
    })
}
