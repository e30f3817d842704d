---------------------------------------------------------------------------
-- Entry points
---------------------------------------------------------------------------

-- The entry points the host calls: each starts a new call for the guards
-- (no nesting of C calls, not aborted) before it runs.
local reset = core.reset
for _, name in ipairs({ "compose", "info", "new_game", "refresh", "kind_name", "option_cards", "describe", "bot", "allowed",
    "subset", "check", "chosen", "build",
    "status", "why_not", "result", "evaluate", "clone", "card_defs", "ruled_out", "card_backs",
    "set_zones", "load_zones", "mirrors", "tape", "copy_tape", "metric_functions", "metric" }) do
  local f = M[name]
  M[name] = function(...)
    reset()
    return f(...)
  end
end
-- The entry points called at every step, playout and step of a search's
-- walk down its tree take a fixed number of arguments: the compiler leaves
-- a function with `...` to the interpreter.
local step, step_subset, playout, key, keys = M.step, M.step_subset, M.playout, M.option_key, M.option_keys
M.rounds = function(game)
  reset()
  return rounds(game)
end
M.option_keys = function(game, viewer)
  reset()
  return keys(game, viewer)
end
M.step = function(game, index)
  reset()
  return step(game, index)
end
M.option_key = function(game, viewer, index)
  reset()
  return key(game, viewer, index)
end
M.step_subset = function(game, index, picks)
  reset()
  return step_subset(game, index, picks)
end
M.playout = function(game, horizon, bot, max_steps, cut)
  reset()
  return playout(game, horizon, bot, max_steps, cut)
end

return M
