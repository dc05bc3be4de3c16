package httpapi

// The handlers of the sandbox state (ours, routed in sandboxRoutes): one
// JSON document holds every record of a sandbox engine, so a test can start
// from a fixture, a bug report can carry the state it happened in, and a
// reset starts afresh without restarting the server. API tokens are never
// part of a document, so an import keeps the caller's credentials working.

import (
	"net/http"

	"github.com/paygrid/payments"
)

// resetRequest is the optional body of POST /sandbox/reset.
type resetRequest struct {
	// RotateToken replaces every API token with one new token, returned
	// once in the answer.
	RotateToken bool `json:"rotateToken"`
}

// resetAnswer is the answer of POST /sandbox/reset.
type resetAnswer struct {
	Config *payments.PlatformConfig `json:"config"`
	Token  *payments.CreatedToken   `json:"token,omitempty"`
}

// resetSandbox is POST /sandbox/reset, with an optional {"rotateToken":
// true}: the platform as at first start, 200 with its configuration and,
// when rotated, the one new token with its secret (every other token stops
// working).
func resetSandbox(r *request) (int, any, error) {
	var in resetRequest
	if err := r.decodeOptional(&in); err != nil {
		return fail(err)
	}
	tok, err := r.eng.Sandbox.Reset(r.ctx(), in.RotateToken)
	if err != nil {
		return fail(err)
	}
	cfg, err := r.eng.Platform.Config(r.ctx())
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, resetAnswer{Config: cfg, Token: tok})
}

// exportSandbox is GET /sandbox/state: the whole state as a
// payments.SandboxState document, 200.
func exportSandbox(r *request) (int, any, error) {
	doc, err := r.eng.Sandbox.Export(r.ctx())
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, doc)
}

// importSandbox is POST /sandbox/state: the state replaced by the document
// in one transaction, 204. A document of another format, an unknown table,
// an invalid record or a ledger that does not balance is INVALID_INPUT
// naming the member, and nothing changes. It may be as large as an upload
// (Config.MaxUploadBytes).
func importSandbox(r *request) (int, any, error) {
	var doc payments.SandboxState
	if err := r.decode(&doc); err != nil {
		return fail(err)
	}
	if err := r.eng.Sandbox.Import(r.ctx(), &doc); err != nil {
		return fail(err)
	}
	return noContent()
}
