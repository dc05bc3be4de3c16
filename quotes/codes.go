package quotes

import "github.com/paygrid/payments/internal/engine"

// Codes of quotes, transfers, lookups and invitations that only this
// area returns. The kernel's code table learns their HTTP status from
// the area's registration (codes).
const (
	CodeInvalidUmaAddress            engine.Code = "INVALID_UMA_ADDRESS"
	CodeMissingRequiredUmaParameters engine.Code = "MISSING_REQUIRED_UMA_PARAMETERS"
	CodeQuoteRequestFailed           engine.Code = "QUOTE_REQUEST_FAILED"
	CodeLookupRequestFailed          engine.Code = "LOOKUP_REQUEST_FAILED"
	CodeLookupRequestNotFound        engine.Code = "LOOKUP_REQUEST_NOT_FOUND"
	CodeSelfPayment                  engine.Code = "SELF_PAYMENT"
	CodeTransactionSizeLimitExceeded engine.Code = "TRANSACTION_SIZE_LIMIT_EXCEEDED"
	CodeTransactionNotCancellable    engine.Code = "TRANSACTION_NOT_CANCELLABLE"
	CodeScaSessionRequired           engine.Code = "SCA_SESSION_REQUIRED"
	CodeInvitationAlreadyClaimed     engine.Code = "INVITATION_ALREADY_CLAIMED"
	CodeInvitationsNotConfigured     engine.Code = "INVITATIONS_NOT_CONFIGURED"
	CodeInvitationCancelled          engine.Code = "INVITATION_CANCELLED"
	CodeInvitationNotFound           engine.Code = "INVITATION_NOT_FOUND"
)

// codes are the area's codes with their HTTP status, registered with the
// area (AreaDef.Codes) so that Code.Status and Codes know them.
var codes = map[engine.Code]int{
	CodeInvalidUmaAddress:            400,
	CodeMissingRequiredUmaParameters: 400,
	CodeQuoteRequestFailed:           400,
	CodeLookupRequestFailed:          400,
	CodeLookupRequestNotFound:        404,
	CodeSelfPayment:                  400,
	CodeTransactionSizeLimitExceeded: 400,
	CodeTransactionNotCancellable:    409,
	CodeScaSessionRequired:           409,
	CodeInvitationAlreadyClaimed:     400,
	CodeInvitationsNotConfigured:     400,
	CodeInvitationCancelled:          400,
	CodeInvitationNotFound:           404,
}
