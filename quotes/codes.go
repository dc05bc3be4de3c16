package quotes

import (
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes/invitations"
)

// Codes of quotes, transfers and lookups that only this area returns. The
// kernel's code table learns their HTTP status from the area's
// registration (codes).
const (
	CodeMissingRequiredUmaParameters engine.Code = "MISSING_REQUIRED_UMA_PARAMETERS"
	CodeQuoteRequestFailed           engine.Code = "QUOTE_REQUEST_FAILED"
	CodeLookupRequestFailed          engine.Code = "LOOKUP_REQUEST_FAILED"
	CodeSelfPayment                  engine.Code = "SELF_PAYMENT"
	CodeTransactionSizeLimitExceeded engine.Code = "TRANSACTION_SIZE_LIMIT_EXCEEDED"
	CodeTransactionNotCancellable    engine.Code = "TRANSACTION_NOT_CANCELLABLE"
	CodeScaSessionRequired           engine.Code = "SCA_SESSION_REQUIRED"
)

// CodeInvalidUmaAddress is a malformed UMA address, or one nobody holds
// where a customer's is required: the kernel's, since lookups and
// invitations both return it.
const CodeInvalidUmaAddress = engine.CodeInvalidUmaAddress

// The codes of invitations (package quotes/invitations, which registers
// them), under the names they had here.
const (
	CodeInvitationAlreadyClaimed = invitations.CodeAlreadyClaimed
	CodeInvitationsNotConfigured = invitations.CodeNotConfigured
	CodeInvitationCancelled      = invitations.CodeCancelled
	CodeInvitationNotFound       = invitations.CodeNotFound
)

// codes are the area's codes with their HTTP status, registered with the
// area (AreaDef.Codes) so that Code.Status and Codes know them.
var codes = map[engine.Code]int{
	CodeMissingRequiredUmaParameters: 400,
	CodeQuoteRequestFailed:           400,
	CodeLookupRequestFailed:          400,
	CodeSelfPayment:                  400,
	CodeTransactionSizeLimitExceeded: 400,
	CodeTransactionNotCancellable:    409,
	CodeScaSessionRequired:           409,
}
