//! Lua values written straight to JSON text, without building a
//! `serde_json::Value` first: what the trace writer needs for the options
//! of every decision, many times a game.

use mlua::{Table, Value};
use std::io::Write;

/// How deep tables may nest in a value written (deeper: an error, which
/// also stops a table that contains itself).
pub const MAX_DEPTH: usize = 64;

/// Why a value could not be written.
#[derive(Debug)]
pub enum JsonTextError {
    Io(std::io::Error),
    Lua(mlua::Error),
    /// A value JSON cannot hold (a function, or nesting too deep).
    Unsupported(String),
}

impl std::fmt::Display for JsonTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JsonTextError::Io(e) => write!(f, "{e}"),
            JsonTextError::Lua(e) => write!(f, "{e}"),
            JsonTextError::Unsupported(why) => f.write_str(why),
        }
    }
}

impl From<std::io::Error> for JsonTextError {
    fn from(e: std::io::Error) -> Self {
        JsonTextError::Io(e)
    }
}

impl From<mlua::Error> for JsonTextError {
    fn from(e: mlua::Error) -> Self {
        JsonTextError::Lua(e)
    }
}

/// Write `v` as JSON, as the core's conversion of plain data reads it: a
/// whole number as an integer, a table with keys 1..n only as an array,
/// any other table as an object with its keys in sorted order, `nil` as
/// `null`.
pub fn write_json(out: &mut impl Write, v: &Value) -> Result<(), JsonTextError> {
    write_value(out, v, 0)
}

fn write_value(out: &mut impl Write, v: &Value, depth: usize) -> Result<(), JsonTextError> {
    match v {
        Value::Nil => out.write_all(b"null")?,
        Value::Boolean(b) => write!(out, "{b}")?,
        Value::Integer(i) => write!(out, "{i}")?,
        Value::Number(n) => write_number(out, *n)?,
        Value::String(s) => {
            serde_json::to_writer(&mut *out, &*s.to_string_lossy()).map_err(std::io::Error::from)?
        }
        Value::Table(t) => write_table(out, t, depth + 1)?,
        other => {
            return Err(JsonTextError::Unsupported(format!(
                "a {} is not plain data",
                other.type_name()
            )))
        }
    }
    Ok(())
}

fn write_number(out: &mut impl Write, n: f64) -> std::io::Result<()> {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if n.fract() == 0.0 && n.abs() < EXACT {
        write!(out, "{}", n as i64)
    } else if n.is_finite() {
        write!(out, "{n}")
    } else {
        out.write_all(b"null")
    }
}

fn write_table(out: &mut impl Write, t: &Table, depth: usize) -> Result<(), JsonTextError> {
    if depth > MAX_DEPTH {
        return Err(JsonTextError::Unsupported(format!(
            "tables nested more than {MAX_DEPTH} deep"
        )));
    }
    let n = t.raw_len();
    let mut keys = 0usize;
    let mut entries: Vec<(String, Value)> = Vec::new();
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair?;
        keys += 1;
        match k {
            Value::Integer(i) if i >= 1 && (i as usize) <= n => {}
            Value::String(s) => entries.push((s.to_string_lossy(), v)),
            Value::Integer(i) => entries.push((i.to_string(), v)),
            Value::Number(f) => entries.push((f.to_string(), v)),
            other => {
                return Err(JsonTextError::Unsupported(format!(
                    "a table key that is a {}",
                    other.type_name()
                )))
            }
        }
    }
    if n > 0 && keys == n {
        out.write_all(b"[")?;
        for i in 1..=n {
            if i > 1 {
                out.write_all(b",")?;
            }
            write_value(out, &t.raw_get::<Value>(i)?, depth)?;
        }
        out.write_all(b"]")?;
        return Ok(());
    }
    // A table with holes or other keys: an object (its 1..n keys too).
    if n > 0 {
        for i in 1..=n {
            entries.push((i.to_string(), t.raw_get::<Value>(i)?));
        }
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    out.write_all(b"{")?;
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, k).map_err(std::io::Error::from)?;
        out.write_all(b":")?;
        write_value(out, v, depth)?;
    }
    out.write_all(b"}")?;
    Ok(())
}

/// Convert `v` to a JSON value as mlua's serde conversion does with empty
/// tables read as arrays (what event data and script variables are read
/// with), without its generic machinery: a table with `#t > 0` is the
/// array of `t[1..#t]`, an empty table an empty array, any other table an
/// object whose keys must be strings; a table inside itself, a function or
/// other non-data value is an error.
pub fn to_value(v: &Value) -> Result<serde_json::Value, JsonTextError> {
    let mut path = Vec::new();
    let mut keys = Vec::new();
    convert(v, &mut path, &mut keys)
}

/// Where a value lies in the value converted: `helper`, `list[3].f`.
fn key_path(keys: &[String]) -> String {
    let mut out = String::new();
    for k in keys {
        if k.starts_with('[') || out.is_empty() {
            out.push_str(k);
        } else {
            out.push('.');
            out.push_str(k);
        }
    }
    out
}

fn convert(
    v: &Value,
    path: &mut Vec<*const std::ffi::c_void>,
    keys: &mut Vec<String>,
) -> Result<serde_json::Value, JsonTextError> {
    use serde_json::Value as J;
    Ok(match v {
        Value::Nil => J::Null,
        Value::Boolean(b) => J::Bool(*b),
        Value::Integer(i) => J::from(*i),
        Value::Number(n) => serde_json::Number::from_f64(*n).map_or(J::Null, J::Number),
        Value::String(s) => J::String(s.to_string_lossy()),
        Value::Table(t) => {
            let ptr = t.to_pointer();
            if path.contains(&ptr) {
                return Err(JsonTextError::Unsupported(
                    "recursive table detected".into(),
                ));
            }
            if path.len() >= 1000 {
                return Err(JsonTextError::Unsupported("tables nested too deep".into()));
            }
            path.push(ptr);
            let n = t.raw_len();
            let out = if n > 0 {
                let mut a = Vec::with_capacity(n);
                for i in 1..=n {
                    keys.push(format!("[{i}]"));
                    a.push(convert(&t.raw_get::<Value>(i)?, path, keys)?);
                    keys.pop();
                }
                J::Array(a)
            } else {
                let mut map = serde_json::Map::new();
                // One walk of the table (`for_each`: the key stays on the
                // VM's stack), cheaper than `pairs`, which pushes the last
                // key back and checks it at each step. The first error
                // stops the walk.
                let mut failed = None;
                let walked = t.for_each::<Value, Value>(|k, x| {
                    let entry = match k {
                        Value::String(k) => {
                            keys.push(k.to_string_lossy());
                            let x = convert(&x, path, keys).map(|x| (k.to_string_lossy(), x));
                            if x.is_ok() {
                                keys.pop();
                            }
                            x
                        }
                        k => Err(JsonTextError::Unsupported(format!(
                            "a table key that is a {} (keys are strings, or 1..n for a list)",
                            k.type_name()
                        ))),
                    };
                    match entry {
                        Ok((k, x)) => {
                            map.insert(k, x);
                            Ok(())
                        }
                        Err(e) => {
                            failed = Some(e);
                            Err(mlua::Error::runtime("stopped"))
                        }
                    }
                });
                if let Some(e) = failed {
                    path.pop();
                    return Err(e);
                }
                walked?;
                if map.is_empty() {
                    J::Array(Vec::new())
                } else {
                    J::Object(map)
                }
            };
            path.pop();
            out
        }
        other => {
            let kind = match other {
                // LuaJIT's FFI values (cdata) are of no type mlua names.
                Value::Other(..) => "an FFI (cdata)",
                Value::Function(_) => "a function",
                Value::Thread(_) => "a coroutine",
                _ => "a userdata",
            };
            let mut at = if keys.is_empty() {
                String::new()
            } else {
                format!(" at `{}`", key_path(keys))
            };
            // A function says where it was written.
            if let Value::Function(f) = other {
                let info = f.info();
                if let (Some(src), Some(line)) = (info.short_src, info.line_defined) {
                    at.push_str(&format!(" (the function of {src}:{line})"));
                }
            }
            return Err(JsonTextError::Unsupported(format!(
                "{kind} value{at}, which is not data"
            )));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlua::{Lua, LuaSerdeExt};

    fn eval(lua: &Lua, code: &str) -> Value {
        crate::lua::load_text(lua, code, "test", None)
            .and_then(|f| f.call::<Value>(()))
            .expect("eval")
    }

    fn text(lua: &Lua, code: &str) -> String {
        let v = eval(lua, code);
        let mut out = Vec::new();
        write_json(&mut out, &v).expect("write");
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn plain_data_reads_back_as_the_serde_conversion_gives_it() {
        let lua = Lua::new();
        for code in [
            "return { card = 4 }",
            "return { act = 'pile', pile = 2, cards = { 3, 1, 2 } }",
            "return { seat = 3.0, text = 'a \"quoted\" word\\n' }",
            "return { 1, 2, { x = true } }",
            "return 'pass'",
            "return 1.5",
        ] {
            let t = text(&lua, code);
            let v = eval(&lua, code);
            let want: serde_json::Value = lua.from_value(v).expect("serde");
            let got: serde_json::Value = serde_json::from_str(&t).expect("json");
            assert_eq!(got, want, "{code}: {t}");
        }
    }

    #[test]
    fn values_convert_as_the_serde_conversion_gives_them() {
        let lua = Lua::new();
        let opts = mlua::serde::DeserializeOptions::new().encode_empty_tables_as_array(true);
        for code in [
            "return { card = 4, cards = { 3, 1 }, none = {} }",
            "return { winners = {}, text = 'P1 wins', vp = { 1, 0, 3 }, deep = { a = { b = { 1.5 } } } }",
            "return { 1, 2, nil, 4 }",
            "return { seat = 3.0, ok = true }",
            "return {}",
        ] {
            let v = eval(&lua, code);
            let want: serde_json::Value = lua.from_value_with(v.clone(), opts).expect("serde");
            assert_eq!(to_value(&v).expect("convert"), want, "{code}");
        }
        for bad in [
            "local t = {} t.t = t return t",
            "return { [5] = 1 }",
            "return { f = print }",
        ] {
            assert!(to_value(&eval(&lua, bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_table_inside_itself_is_an_error_not_a_crash() {
        let lua = Lua::new();
        let v = eval(&lua, "local t = {} t.t = t return t");
        assert!(matches!(
            write_json(&mut Vec::new(), &v),
            Err(JsonTextError::Unsupported(_))
        ));
        let f = eval(&lua, "return print");
        assert!(write_json(&mut Vec::new(), &f).is_err());
    }
}
