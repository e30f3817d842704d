//! The layers of the workspace, checked (docs/architecture.md, "Crates and
//! layers"): which crate may depend on which, what only the binary may
//! hold, and no import cycle between the modules of any crate.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace's root folder.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Each crate: its folder, its package name, and the deckhand crates it may
/// depend on (each layer only on those below it).
const LAYERS: [(&str, &str, &[&str]); 4] = [
    ("core/engine", "deckhand-engine", &[]),
    ("core/bots", "deckhand-bots", &["deckhand-engine"]),
    (
        "core/lab",
        "deckhand-lab",
        &["deckhand-engine", "deckhand-bots"],
    ),
    (
        "cli",
        "deckhand",
        &["deckhand-engine", "deckhand-bots", "deckhand-lab"],
    ),
];

/// Crates only the binary may use: the terminal, the command line, the
/// process's allocator.
const BINARY_ONLY: [&str; 5] = ["clap", "rustyline", "indicatif", "libmimalloc-sys", "dirs"];

/// The names under `[dependencies]` of a Cargo.toml (not the dev- or
/// build-dependencies).
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside {
            if let Some((name, _)) = line.split_once(['=', '.']) {
                let name = name.trim();
                if !name.is_empty() && !name.starts_with('#') {
                    out.insert(name.to_string());
                }
            }
        }
    }
    out
}

#[test]
fn each_crate_depends_only_on_the_layers_below_it() {
    for (dir, package, allowed) in LAYERS {
        let manifest = std::fs::read_to_string(root().join(dir).join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("{dir}/Cargo.toml: {e}"));
        assert!(
            manifest.contains(&format!("name = \"{package}\"")),
            "{dir} is not {package}"
        );
        let deps = dependencies(&manifest);
        for dep in deps.iter().filter(|d| d.starts_with("deckhand")) {
            assert!(
                allowed.contains(&dep.as_str()),
                "{package} depends on {dep}: a layer may use only those below it ({allowed:?})"
            );
        }
        if package != "deckhand" {
            for dep in BINARY_ONLY {
                assert!(
                    !deps.contains(dep),
                    "{package} depends on {dep}, which only the binary may use"
                );
            }
        }
    }
}

#[test]
fn the_command_line_knows_nothing_of_lua() {
    for (file, text) in sources(&root().join("cli/src")) {
        for (n, line) in code_lines(&text) {
            assert!(
                !line.contains("mlua"),
                "{}:{n}: the binary reaches the Lua host directly: {line}",
                file.display()
            );
        }
    }
}

#[test]
fn no_crate_has_an_import_cycle_between_its_modules() {
    for (dir, package, _) in LAYERS {
        let graph = module_graph(&root().join(dir).join("src"));
        let cycles = cycles(&graph);
        assert!(
            cycles.is_empty(),
            "{package}: modules that import each other, directly or not: {cycles:?}"
        );
    }
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    // The check above must be able to fail.
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    g.entry("c".into()).or_default().insert("a".into());
    g.entry("d".into()).or_default().insert("a".into());
    assert_eq!(cycles(&g), vec![vec!["a", "b", "c"]]);
    let edges = references(
        "use crate::{b::x, c};\nfn f() { crate::d::y(); super::e::z(); }",
        "a::f",
    );
    assert_eq!(
        edges,
        ["b::x", "c", "d::y", "a::e::z"]
            .map(String::from)
            .into_iter()
            .collect::<BTreeSet<_>>()
    );
}

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&d)
            .unwrap_or_else(|e| panic!("{}: {e}", d.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).expect("read source");
                out.push((p, text));
            }
        }
    }
    out
}

/// The lines of `text` that are code (comments left out), numbered.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("")))
        .filter(|(_, l)| !l.trim().is_empty())
}

/// The module path of a source file under `src` (`lua::api` for
/// src/lua/api.rs, `game` for src/game/mod.rs, empty for the crate root).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts.join("::")
}

/// The paths a module's code names through `crate::` (and `super::`,
/// resolved from `module`), as written: `crate::a::b::C` gives `a::b::C`.
fn references(text: &str, module: &str) -> BTreeSet<String> {
    let parent: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
    let parent = parent[..parent.len().saturating_sub(1)].join("::");
    let mut out = BTreeSet::new();
    for (_, line) in code_lines(text) {
        for (prefix, base) in [("crate::", String::new()), ("super::", parent.clone())] {
            let mut rest = line;
            while let Some(at) = rest.find(prefix) {
                let before = rest[..at].chars().last();
                rest = &rest[at + prefix.len()..];
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let join = |p: &str| {
                    if base.is_empty() {
                        p.to_string()
                    } else {
                        format!("{base}::{p}")
                    }
                };
                if let Some(group) = rest.strip_prefix('{') {
                    let end = group.find('}').unwrap_or(group.len());
                    for item in group[..end].split(',') {
                        let item = item.trim();
                        if !item.is_empty() && item != "self" {
                            out.insert(join(&path_at(item)));
                        }
                    }
                } else {
                    let p = path_at(rest);
                    if !p.is_empty() {
                        out.insert(join(&p));
                    }
                }
            }
        }
    }
    out
}

/// The `a::b::c` path at the start of `s`.
fn path_at(s: &str) -> String {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(s.len());
    s[..end].trim_end_matches(':').to_string()
}

/// Which module imports which, among the modules of the crate whose
/// source folder is `src`. A module's use of its own parent or children
/// is not an import between modules (a parent declares its children).
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = sources(src);
    let modules: BTreeSet<String> = files.iter().map(|(f, _)| module_of(src, f)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, text) in &files {
        let from = module_of(src, file);
        if from.is_empty() {
            continue;
        }
        for path in references(text, &from) {
            // The longest prefix of the path that is a module.
            let segments: Vec<&str> = path.split("::").collect();
            let target = (1..=segments.len())
                .rev()
                .map(|n| segments[..n].join("::"))
                .find(|m| modules.contains(m));
            let Some(to) = target else { continue };
            let related = |a: &str, b: &str| a == b || a.starts_with(&format!("{b}::"));
            if !related(&from, &to) && !related(&to, &from) {
                graph.entry(from.clone()).or_default().insert(to);
            }
        }
        graph.entry(from).or_default();
    }
    graph
}

/// The groups of modules that import each other (strongly connected
/// components of more than one module), each sorted.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Tarjan's algorithm.
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        let graph = s.graph;
        for w in graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(lw));
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                group.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.out.push(group);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out.sort();
    s.out
}
