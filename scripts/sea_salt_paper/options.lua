--[[
Sea Salt & Paper: the options. Each is a reading of a point the rulebook
leaves open; the reasons are in each option's doc and in
docs/sea-salt-paper.md.
]]

return function(rules)

  ---------------------------------------------------------------------------
  -- Options (each is a reading of a point the rulebook leaves open)
  ---------------------------------------------------------------------------

  rules.options = {
    target = {
      default = "auto",
      min = 1, max = 200,
      doc = "Points that end the game (\"End of game\"): \"auto\" = 40 / 35 / 30 with 2 / 3 / 4 players; "
        .. "or a number.",
    },
    mermaid_white = {
      default = true,
      doc = "Mermaid scoring counts white (the mermaids' own colour) as a colour a mermaid may score, as "
        .. "the Board Game Arena adaptation does (the rulebook is silent, and its mermaid example fits "
        .. "either reading). false: mermaids score only the other colours. The colour bonus "
        .. "always counts white.",
    },
    boat_extra_turns = {
      default = "each",
      choices = { "each", "one" },
      doc = "Boats: \"each\" pair played gives another turn (the rulebook sets no limit; so does the "
        .. "Board Game Arena adaptation); \"one\": only one extra turn per "
        .. "turn, a second pair in the same turn scores but has no effect.",
    },
    last_chance_empty_deck = {
      default = "play_on",
      choices = { "play_on", "no_score" },
      doc = "The deck runs out during the final turns after LAST CHANCE: \"play_on\" = the final turns go "
        .. "on (taking from the discard piles) and the round is scored (the rulebook is silent once a "
        .. "call is made; so plays the Board Game Arena adaptation); \"no_score\" = the "
        .. "round ends at once without scoring, as when no call was made.",
    },
    tie_break = {
      default = "turn_order",
      choices = { "turn_order", "last_round_points" },
      doc = "Tied at the end of the game: \"turn_order\" = the one who went last in the last round wins "
        .. "(rulebook); \"last_round_points\" = the one who scored most in the last round (the "
        .. "Board Game Arena adaptation's tie-break), then turn "
        .. "order.",
    },
  }
end
