package cards

import "github.com/paygrid/payments/internal/engine"

// Codes of cards that only this area returns. The kernel's code
// table learns their HTTP status from the area's registration (codes).
const (
	CodeCardAlreadyClosed        engine.Code = "CARD_ALREADY_CLOSED"
	CodeCardLimitReached         engine.Code = "CARD_LIMIT_REACHED"
	CodeCardNotMutable           engine.Code = "CARD_NOT_MUTABLE"
	CodeCardholderKycNotApproved engine.Code = "CARDHOLDER_KYC_NOT_APPROVED"
	CodeFundingSourceIneligible  engine.Code = "FUNDING_SOURCE_INELIGIBLE"
)

// codes are the area's codes with their HTTP status, registered with the
// area (AreaDef.Codes) so that Code.Status and Codes know them.
var codes = map[engine.Code]int{
	CodeCardAlreadyClosed:        409,
	CodeCardLimitReached:         409,
	CodeCardNotMutable:           409,
	CodeCardholderKycNotApproved: 400,
	CodeFundingSourceIneligible:  400,
}
