package sandbox_test

import (
	"testing"

	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The UUIDs of sandbox record ids end in 800 (the ids an operation derives,
// in 800 to 8ff), so no id the engine draws steers a suffix rule.
func TestNewUUID_NeverSteers(t *testing.T) {
	for range 1000 {
		u, err := sandbox.NewUUID()
		require.NoError(t, err)
		assert.Equal(t, "800", u.String()[33:])
		assert.Equal(t, byte(7), u[6]>>4, "version 7")
	}
}
