--[[
Seas of Strife, "Strife": the designer's rules (rulebook, "Background").

  deckhand play seas_of_strife --variant strife

* Face cards: "If a Face card is played in a trick, it 'zeroes out' the
  count for that suit so that a card from that suit cannot win the trick."
  Among the suits still counting, the usual rule decides: most cards, and on
  a tie the highest card of the tied suits (the Strife rules do not mention
  ties, so the main rules' tie rule applies to the suits still counting).
* "If all suits are 'zeroed out,' then all cards played are considered a
  single suit, regardless of color, and therefore, the highest card played
  in the trick will win it" (a Face card can then win: "David would take the
  trick because he played the highest numbered card (20)").
* "If a player takes a trick with a Face card, they are not allowed to pick
  who leads the next trick": this variant makes "never" the default of the
  leader_choice option (so -o leader_choice=... still brings a choice back,
  as a house rule).
* 3 players: "remove the lowest 3 sets of cards from the game (orange, red,
  and gray). The player who has the blue (iceberg) 31 card plays the first
  card" (the lowest card in play, see rules.first_card): 30 cards, 10 each.
  The game still ends at 15 points (the rulebook sets the end score by
  player count only, not by hand size; -o end_at=N changes it).

Everything else is game.lua: the zeroing is in rules.suit_counts, which the
trick winner, the option texts, the status lines and the bots all use.
]]

return {
  id = "strife",
  title = "Strife (the designer's rules: Face cards zero out their suit)",
  game = "seas_of_strife",
  modify = function(rules)
    local counts = rules.suit_counts
    rules.suit_counts = function(game, cards)
      local c = counts(game, cards)
      for i = 1, #cards do
        if rules.is_face(game, cards[i]) then c[game.cards[cards[i]].suit] = 0 end
      end
      return c
    end

    rules.LEFT_OUT = { [3] = { orange = true, red = true, gray = true } }

    local o = rules.options.leader_choice
    local doc = o.doc
    rules.options.leader_choice = {
      default = "never",
      choices = o.choices,
      doc = doc .. " Strife: \"never\" by default (\"they are not allowed to pick who leads the next trick\").",
    }
  end,
}
