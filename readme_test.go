package payments_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADME_EmbeddingIsTheExample keeps the README's embedding snippet
// compiled: it must be the body of Example_embedSandbox, which go test
// builds and runs against its output.
func TestREADME_EmbeddingIsTheExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	src, err := os.ReadFile("example_embed_test.go")
	require.NoError(t, err)

	r := string(readme)
	i := strings.Index(r, "## Embedding the engine")
	require.GreaterOrEqual(t, i, 0, "README has no embedding section")
	start := strings.Index(r[i:], "```go\n")
	require.GreaterOrEqual(t, start, 0)
	snippet := r[i+start+len("```go\n"):]
	snippet = snippet[:strings.Index(snippet, "```\n")]

	s := string(src)
	const head = "func Example_embedSandbox() {\n"
	b := strings.Index(s, head)
	e := strings.Index(s, "\t// Output:")
	require.True(t, b >= 0 && e > b, "Example_embedSandbox not found")
	var body []string
	for line := range strings.SplitSeq(strings.TrimRight(s[b+len(head):e], "\n"), "\n") {
		body = append(body, strings.TrimPrefix(line, "\t"))
	}
	assert.Equal(t, strings.Join(body, "\n")+"\n", snippet, "the README's snippet drifted from Example_embedSandbox")
}
