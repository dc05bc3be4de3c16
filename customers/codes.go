package customers

import "github.com/paygrid/payments/internal/engine"

// Codes of customers, their documents and KYC, and their SCA logins
// that only this area returns. The kernel's code table learns their HTTP
// status from the area's registration (codes).
const (
	CodeEndUserTermsVersionNotFound    engine.Code = "END_USER_TERMS_VERSION_NOT_FOUND"
	CodeSenderNotAccepted              engine.Code = "SENDER_NOT_ACCEPTED"
	CodeEndUserTermsNotAccepted        engine.Code = "END_USER_TERMS_NOT_ACCEPTED"
	CodeMissingMandatoryUserInfo       engine.Code = "MISSING_MANDATORY_USER_INFO"
	CodeDocumentRejectedLowQuality     engine.Code = "LOW_QUALITY"
	CodeDocumentRejectedDataMismatch   engine.Code = "DATA_MISMATCH"
	CodeDocumentRejectedExpired        engine.Code = "EXPIRED"
	CodeDocumentRejectedSuspectedFraud engine.Code = "SUSPECTED_FRAUD"
	CodeDocumentRejectedUnsuitable     engine.Code = "UNSUITABLE_DOCUMENT"
	CodeDocumentRejectedIncomplete     engine.Code = "INCOMPLETE"
	CodeBulkUploadJobNotFound          engine.Code = "BULK_UPLOAD_JOB_NOT_FOUND"
	CodeDocumentHolderNotFound         engine.Code = "DOCUMENT_HOLDER_NOT_FOUND"
	CodeVerificationNotFound           engine.Code = "VERIFICATION_NOT_FOUND"
	CodeCustomerDeleted                engine.Code = "CUSTOMER_DELETED"
	CodeUmaAddressExists               engine.Code = "UMA_ADDRESS_EXISTS"
	CodeDocumentAlreadyExists          engine.Code = "DOCUMENT_ALREADY_EXISTS"
	CodeAccountLocked                  engine.Code = "ACCOUNT_LOCKED"
)

// codes are the area's codes with their HTTP status, registered with the
// area (AreaDef.Codes) so that Code.Status and Codes know them.
var codes = map[engine.Code]int{
	CodeEndUserTermsVersionNotFound:    400,
	CodeSenderNotAccepted:              400,
	CodeEndUserTermsNotAccepted:        403,
	CodeMissingMandatoryUserInfo:       400,
	CodeDocumentRejectedLowQuality:     400,
	CodeDocumentRejectedDataMismatch:   400,
	CodeDocumentRejectedExpired:        400,
	CodeDocumentRejectedSuspectedFraud: 400,
	CodeDocumentRejectedUnsuitable:     400,
	CodeDocumentRejectedIncomplete:     400,
	CodeBulkUploadJobNotFound:          404,
	CodeDocumentHolderNotFound:         404,
	CodeVerificationNotFound:           404,
	CodeCustomerDeleted:                410,
	CodeUmaAddressExists:               409,
	CodeDocumentAlreadyExists:          409,
	CodeAccountLocked:                  423,
}
