package httpapi

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

func exportSandbox(r *request) (int, any, error) {
	doc, err := r.eng.Sandbox.Export(r.ctx())
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, doc)
}

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
