package railside_test

import "context"

// ctx is the context of the tests' engine calls.
var ctx = context.Background()
