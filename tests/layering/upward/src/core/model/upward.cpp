// A deliberate upward include: the model layer may not see the ranker.
#include <mlsize/rank/ranker.hpp>
