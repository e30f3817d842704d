//! How a prompt's command is described to users: [`CommandInfo`] (name,
//! aliases, argument synopsis, one-line help and long help with examples),
//! and what is made from a table of them: finding the command a word names,
//! "did you mean" suggestions, the command list and `help CMD`. The REPL's
//! commands declare theirs in [`commands`](super::commands); `replay
//! --step`'s are in [`stepper`](super::stepper).

/// One REPL command as users see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandInfo {
    /// The name users type.
    pub name: &'static str,
    /// Other names for the same command.
    pub aliases: &'static [&'static str],
    /// The arguments, in usage notation (`[]` optional, `...` repeatable).
    pub args: &'static str,
    /// One line for `help`.
    pub summary: &'static str,
    /// The long help for `help CMD`, with examples.
    pub help: &'static str,
}

impl CommandInfo {
    /// `name args`, as shown in usage lines.
    pub fn usage(&self) -> String {
        if self.args.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, self.args)
        }
    }

    /// The example lines of the long help (the indented lines after
    /// `Example:` or `Examples:`), as a person would type them (the tests
    /// run each one).
    #[cfg(test)]
    pub fn examples(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut inside = false;
        for line in self.help.lines() {
            if line.starts_with("Example") {
                inside = true;
            } else if inside && line.starts_with("  ") && !line.trim().is_empty() {
                out.push(line.trim());
            } else {
                inside = false;
            }
        }
        out
    }

    /// Whether `word` names this command (name or alias, case-insensitive).
    pub fn answers_to(&self, word: &str) -> bool {
        self.name.eq_ignore_ascii_case(word)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(word))
    }
}

/// The command of `table` a word names (another prompt's commands, such
/// as `replay --step`'s).
pub fn lookup_in(table: &'static [CommandInfo], word: &str) -> Option<&'static CommandInfo> {
    table.iter().find(|c| c.answers_to(word))
}

/// The name in `table` closest to a mistyped word, if any is close enough.
pub fn closest_in<I>(table: I, word: &str) -> Option<&'static str>
where
    I: IntoIterator<Item = &'static CommandInfo>,
    I::IntoIter: Clone,
{
    let table = table.into_iter();
    let w = word.to_ascii_lowercase();
    if w.is_empty() {
        return None;
    }
    // A prefix of exactly one command name is the best guess.
    let prefixed: Vec<&CommandInfo> = table.clone().filter(|c| c.name.starts_with(&w)).collect();
    if let [one] = prefixed.as_slice() {
        return Some(one.name);
    }
    let limit = match w.chars().count() {
        0..=2 => 1,
        3..=5 => 2,
        _ => 3,
    };
    let w = w.as_str();
    table
        .flat_map(|c| {
            std::iter::once(c.name)
                .chain(c.aliases.iter().copied())
                .filter(|n| n.len() > 1)
                .map(move |n| (edit_distance(w, n), c.name))
        })
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, name)| name)
}

/// Optimal string alignment distance: insertions, deletions, substitutions
/// and transpositions of neighbours each cost 1.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// Every command of `table` with its summary, under a heading.
pub fn list_of<'a>(table: impl IntoIterator<Item = &'a CommandInfo>) -> String {
    let mut lines = vec!["Commands (`help COMMAND` for details and examples):".to_string()];
    for c in table {
        lines.push(format!("  {:<10} {}", c.name, c.summary));
    }
    lines.join("\n")
}

/// The text of `help CMD`: usage, aliases and the long help.
pub fn detail(c: &CommandInfo) -> String {
    let mut out = format!("usage: {}\n", c.usage());
    if !c.aliases.is_empty() {
        out.push_str(&format!("aliases: {}\n", c.aliases.join(", ")));
    }
    out.push_str(c.help);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_transpositions_once() {
        assert_eq!(edit_distance("show", "show"), 0);
        assert_eq!(edit_distance("shwo", "show"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
