package wirecheck_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paygrid/payments/internal/wirecheck"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeviations_ListedInREADME: the README lists every deliberate
// deviation of wirecheck.Deviations by its ID, and no other.
func TestDeviations_ListedInREADME(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(b), "## Deliberate deviations from the reference")
	require.True(t, ok, "README has the deviations section")
	section, _, _ = strings.Cut(section, "\n## ")
	ids := map[string]bool{}
	for _, d := range wirecheck.Deviations {
		assert.NotEmpty(t, d.What)
		assert.NotEmpty(t, d.Why)
		assert.Contains(t, section, "`"+d.ID+"`", "README lists %s", d.ID)
		ids[d.ID] = true
	}
	for _, line := range strings.Split(section, "\n") {
		if id, ok := strings.CutPrefix(line, "- `"); ok {
			id, _, _ = strings.Cut(id, "`")
			assert.True(t, ids[id], "README lists %s, which wirecheck.Deviations does not", id)
		}
	}
}
