package payments

import (
	"bytes"
	"encoding/json"

	"github.com/paygrid/payments/validate"
)

// stateRecordTypes are the record types of the state tables that hold JSON
// records: an import decodes every record of these tables into its type,
// so a fixture cannot plant a record the engine would fail to read later.
var stateRecordTypes = map[string]func() any{
	tableAgentActions:     func() any { return new(actionRecord) },
	tableAgentDeviceCodes: func() any { return new(AgentDeviceCode) },
	tableAgents:           func() any { return new(agentRecord) },
	tableBeneficialOwners: func() any { return new(BeneficialOwner) },
	tableBulkJobs:         func() any { return new(bulkJobRecord) },
	tableCardPositions:    func() any { return new(cardPosition) },
	tableCardReveals:      func() any { return new(cardRevealAudit) },
	tableCards:            func() any { return new(Card) },
	tableContactCodes:     func() any { return new(contactCode) },
	tableCustomers:        func() any { return new(customerRecord) },
	tableDocuments:        func() any { return new(Document) },
	tableDueDead:          func() any { return new(DeadLetter) },
	tableDueRetry:         func() any { return new(dueRetry) },
	tableExternalAccounts: func() any { return new(externalRecord) },
	tableIdempotency:      func() any { return new(idemRecord) },
	tableIntents:          func() any { return new(intent) },
	tableInternalAccounts: func() any { return new(InternalAccount) },
	tableInvitations:      func() any { return new(Invitation) },
	tableLedgerEntries:    func() any { return new(LedgerEntry) },
	tableLookups:          func() any { return new(lookupRecord) },
	tableOutbox:           func() any { return new(outboxRecord) },
	tableOutboxDead:       func() any { return new(outboxRecord) },
	tablePlatform:         func() any { return new(PlatformConfig) },
	tableQuotes:           func() any { return new(quoteRecord) },
	tableStablecoinLinks:  func() any { return new(linkRecord) },
	tableStablecoinOps:    func() any { return new(opRecord) },
	tableStablecoins:      func() any { return new(Stablecoin) },
	tableTransactions:     func() any { return new(Transaction) },
	tableVerifications:    func() any { return new(Verification) },
	tableSCA:              func() any { return new(scaRecord) },
	tableSCAResets:        func() any { return new(scaResetRecord) },
}

// checkStateRecords adds an error to fe for every record of a JSON table
// that is not a JSON object of its type.
func checkStateRecords(fe *validate.Errors, table string, recs []StateRecord) {
	newRecord := stateRecordTypes[table]
	if newRecord == nil {
		return
	}
	for i, r := range recs {
		field := validate.Index("tables."+table, i)
		v := bytes.TrimSpace(r.Value)
		if len(v) == 0 || v[0] != '{' || json.Unmarshal(v, newRecord()) != nil {
			fe.Add(field, nil, "%s must be a JSON object of a %s record", field, table)
			continue
		}
		// Indexed records are kept at their id, which lists rely on.
		var rec struct {
			ID string `json:"id"`
		}
		if indexes[table] != nil && (json.Unmarshal(v, &rec) != nil || rec.ID != r.Key) {
			fe.Add(field, nil, "%s must be kept at its id: key %q, id %q", field, r.Key, rec.ID)
		}
	}
}
