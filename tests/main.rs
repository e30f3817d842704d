//! deckhand's integration tests: whole games through the public API and the
//! binary, in one test binary with a module per area, so a failing test's
//! path names its area (`cargo test -p deckhand --test it repl_pty::`).

// Helpers the areas share.
mod common;
mod pty;

// The areas.
mod architecture;
mod choices_repl;
mod cli;
mod cli_errors;
mod conformance;
mod doc_example;
mod hostile_scripts;
mod house_rules;
mod lab;
mod lab_html;
mod lab_scale;
mod ladder;
mod lua_scenarios;
mod repl_pty;
mod repl_recovery;
mod saves;
mod sea_change_examples;
mod sea_salt_paper_examples;
mod sea_salt_paper_games;
mod sea_salt_paper_repl;
mod seadogs_examples;
mod seadogs_games;
mod seadogs_repl;
mod seadogs_sales;
mod search_worker;
mod seas_of_strife_examples;
mod seas_of_strife_repl;
mod skill;
mod strict_rules;
mod trace;
mod trace_golden;
mod whole_games;
