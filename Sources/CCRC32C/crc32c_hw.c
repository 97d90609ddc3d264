#include "ccrc32c.h"
