// The CLI side of the positional-encoding registry (embed/positions/registry.hpp): flags and
// values generated from the kinds, so no command names a kind.
//
//   position_kind_flag(help)   -> {"pos", "none|sinusoidal|...", help}: the --pos / --kind choices
//   position_param_flags()     -> one flag per parameter of every kind: --<kind>-<param>, '_' as '-'
//                                 (--rope-base, --sinusoidal-base), help with default and range
//   position_values(a, kind)   -> the given values of that kind's flags (the engine fills in the
//                                 defaults and checks the ranges); a flag of another kind fails:
//                                 "--rope-base: applies to --pos rope, not --pos learned"
#pragma once

#include <string>
#include <vector>

#include "cli/args.hpp"
#include "embed/positions/registry.hpp"

namespace embedlab::cli {

FlagSpec position_kind_flag(const char* name, const char* help, bool required = false);
std::vector<FlagSpec> position_param_flags(const char* prefix = "");
PositionValues position_values(Args& a, const PositionKind& kind, const char* kind_flag = "pos");

}  // namespace embedlab::cli
