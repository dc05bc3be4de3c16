package stablecoins

import "github.com/paygrid/payments/internal/engine"

// Codes of stablecoins and their provider that only this area returns
// (the two with the maker's name use the neutral word). The kernel's code
// table learns their HTTP status from the area's registration (codes).
const (
	CodeStablecoinProviderAccountInvalid           engine.Code = "STABLECOIN_PROVIDER_ACCOUNT_INVALID"
	CodeStablecoinProviderAccountRevoked           engine.Code = "STABLECOIN_PROVIDER_ACCOUNT_REVOKED"
	CodeStablecoinProviderAccountSelectionRequired engine.Code = "STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED"
	CodeStablecoinAmountNotRepresentable           engine.Code = "STABLECOIN_AMOUNT_NOT_REPRESENTABLE"
	CodeStablecoinBurnSourceNotSupported           engine.Code = "STABLECOIN_BURN_SOURCE_NOT_SUPPORTED"
	CodeStablecoinExternalAccountLinkFailed        engine.Code = "STABLECOIN_EXTERNAL_ACCOUNT_LINK_FAILED"
	CodeStablecoinExternalAccountLinkMethodReq     engine.Code = "STABLECOIN_EXTERNAL_ACCOUNT_LINK_METHOD_REQUIRED"
	CodeStablecoinExternalAccountNotLinked         engine.Code = "STABLECOIN_EXTERNAL_ACCOUNT_NOT_LINKED"
	CodeStablecoinExternalAccountNotSupported      engine.Code = "STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED"
	CodeStablecoinExternalAccountProviderLinkFail  engine.Code = "STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_FAILED"
	CodeStablecoinExternalAccountProviderLinkReq   engine.Code = "STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_REQUIRED"
	CodeStablecoinServiceOperationsNotEnabled      engine.Code = "STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED"
	CodeStablecoinNotProvisioned                   engine.Code = "STABLECOIN_NOT_PROVISIONED"
	CodeStablecoinOperationNotSupported            engine.Code = "STABLECOIN_OPERATION_NOT_SUPPORTED"
	CodeStablecoinProviderError                    engine.Code = "STABLECOIN_PROVIDER_ERROR"
	CodeStablecoinProviderSourceNotLinked          engine.Code = "STABLECOIN_PROVIDER_SOURCE_NOT_LINKED"
	CodeStablecoinVerificationFailed               engine.Code = "STABLECOIN_VERIFICATION_FAILED"
	CodeStablecoinProviderAccountNotFound          engine.Code = "STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND"
	CodeStablecoinExternalAccountNotFound          engine.Code = "STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND"
	CodeStablecoinNotFound                         engine.Code = "STABLECOIN_NOT_FOUND"
	CodeStablecoinOperationNotFound                engine.Code = "STABLECOIN_OPERATION_NOT_FOUND"
	CodeStablecoinServiceEnablementNotRequestable  engine.Code = "STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE"
	CodeStablecoinSymbolAlreadyExists              engine.Code = "STABLECOIN_SYMBOL_ALREADY_EXISTS"
	CodeStablecoinTokenIdentifierAlreadyExists     engine.Code = "STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS"
)

// codes are the area's codes with their HTTP status, registered with the
// area (AreaDef.Codes) so that Code.Status and Codes know them.
var codes = map[engine.Code]int{
	CodeStablecoinProviderAccountInvalid:           400,
	CodeStablecoinProviderAccountRevoked:           400,
	CodeStablecoinProviderAccountSelectionRequired: 400,
	CodeStablecoinAmountNotRepresentable:           400,
	CodeStablecoinBurnSourceNotSupported:           400,
	CodeStablecoinExternalAccountLinkFailed:        400,
	CodeStablecoinExternalAccountLinkMethodReq:     400,
	CodeStablecoinExternalAccountNotLinked:         400,
	CodeStablecoinExternalAccountNotSupported:      400,
	CodeStablecoinExternalAccountProviderLinkFail:  400,
	CodeStablecoinExternalAccountProviderLinkReq:   400,
	CodeStablecoinServiceOperationsNotEnabled:      400,
	CodeStablecoinNotProvisioned:                   400,
	CodeStablecoinOperationNotSupported:            400,
	CodeStablecoinProviderError:                    400,
	CodeStablecoinProviderSourceNotLinked:          400,
	CodeStablecoinVerificationFailed:               400,
	CodeStablecoinProviderAccountNotFound:          404,
	CodeStablecoinExternalAccountNotFound:          404,
	CodeStablecoinNotFound:                         404,
	CodeStablecoinOperationNotFound:                404,
	CodeStablecoinServiceEnablementNotRequestable:  409,
	CodeStablecoinSymbolAlreadyExists:              409,
	CodeStablecoinTokenIdentifierAlreadyExists:     409,
}
