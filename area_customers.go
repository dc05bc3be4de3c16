package payments

import (
	"context"
	"time"

	"github.com/paygrid/payments/walletauth"
)

// customersArea declares the customers area's tables and background work:
// customers, verifications, documents, beneficial owners, contact codes,
// bulk imports and SCA.
func customersArea(e *handle, cfg Config) areaDef {
	st := &customersState{kyc: cfg.KYC, codes: cfg.Codes, scaPasskeys: cfg.SCAPasskeys}
	if st.kyc == nil {
		st.kyc = defaultKYC{}
	}
	return areaDef{
		state: []slotEntry{customersSlot.with(st)},
		tables: []tableDef{
			{name: tableCustomers, record: func() any { return new(customerRecord) },
				ix: indexed(tableCustomers, func(x *customerRecord) time.Time { return x.CreatedAt },
					every[customerRecord](),
					ix(ixPlatform, func(x *customerRecord) string { return x.PlatformCustomerID }),
					ix(ixUma, func(x *customerRecord) string { return x.UmaAddress }),
					ix(ixType, func(x *customerRecord) string { return string(x.CustomerType) }),
					ix(ixStatus, func(x *customerRecord) string { return customerStatusValue(x.CustomerType, x.Status()) }))},
			{name: tableCustomerUma},
			{name: tableCustomerPlatformIDs},
			{name: tableVerifications, record: func() any { return new(Verification) },
				ix: indexed(tableVerifications, func(x *Verification) time.Time { return x.CreatedAt },
					every[Verification](),
					ix(ixCustomer, func(x *Verification) string { return x.CustomerID }),
					ix(ixStatus, func(x *Verification) string { return string(x.VerificationStatus) }))},
			{name: tableDocuments, record: func() any { return new(Document) },
				ix: indexed(tableDocuments, func(x *Document) time.Time { return x.CreatedAt },
					every[Document](),
					ix(ixHolder, func(x *Document) string { return x.DocumentHolder }))},
			{name: tableDocumentFiles},
			{name: tableDocumentsByHolder},
			{name: tableBeneficialOwners, record: func() any { return new(BeneficialOwner) },
				ix: indexed(tableBeneficialOwners, func(x *BeneficialOwner) time.Time { return x.CreatedAt },
					ix(ixCustomer, func(x *BeneficialOwner) string { return x.CustomerID }))},
			{name: tableContactCodes, record: func() any { return new(contactCode) }},
			{name: tableBulkJobs, record: func() any { return new(bulkJobRecord) }},
			{name: tableBulkJobsDue},
			{name: tableSCA, record: func() any { return new(scaRecord) }},
			{name: tableSCAResets, record: func() any { return new(scaResetRecord) }},
		},
		intents: []intentKind{codeIntentKind(cfg.Codes)},
		passes:  []func(ctx context.Context) (int, error){func(ctx context.Context) (int, error) { return resumeBulkJobs(e, ctx) }},
	}
}

// customersState is the customers area's state: its providers, the SCA
// passkeys' relying party, and the customers decoded lately.
type customersState struct {
	kyc         KYCProvider
	codes       CodeSender
	scaPasskeys walletauth.RelyingParty
	cache       readCache[customerRecord]
}

var customersSlot slot[customersState]

// customerStatusValue is the ixStatus value of customers: a KYC filter
// (individuals) and a KYB filter (businesses) each name one type.
func customerStatusValue(typ CustomerType, s KYCStatus) string {
	if s == "" {
		return ""
	}
	return string(typ) + "/" + string(s)
}
