"""T5's relative-position buckets, shared by the reference generators (gen-t5-buckets-reference.py,
gen-next-token-reference.py), so that both use one copy of HF's function.

t5_relative_position_bucket below is T5Attention._relative_position_bucket of HF transformers
(src/transformers/models/t5/modeling_t5.py, v4.x; the function is unchanged since v2.x), copied
verbatim because transformers is not installed here: float32 log of (n / max_exact), divided by
math.log(max_distance / max_exact) (a python float, applied by torch in float32), multiplied by
(num_buckets - max_exact), truncated by .to(torch.long), then capped.
  relative_position: a torch.long tensor of memory_position - query_position -> buckets, same shape.
  t5_relative_position_bucket(torch.tensor([0, -1, -20]), False, 8, 20) -> tensor([0, 1, 7])
Not here: any model; the scripts import this module from scripts/ (their own directory).
"""
import math

import torch


# --- copied from transformers/models/t5/modeling_t5.py (T5Attention._relative_position_bucket) ---
def t5_relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    # now relative_position is in the range [0, inf)

    # half of the buckets are for exact increments in positions
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact

    # The other half of the buckets are for logarithmically bigger bins in positions up to max_distance
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
    )

    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets
# --- end of the copy ---
