package quotes

import "github.com/paygrid/payments/accounts"

// Settlement is an executed payment as the ledger sees it: the ledger
// accounts it moves money between and the amounts of its quote. The engine
// fills it when the rail reports the payment's outcome.
type Settlement struct {
	// Hold is where the sending total waits while the rail delivers.
	Hold string
	// Destination receives the payment (an internal account, or the
	// external ledger account of a payout).
	Destination string
	// PlatformFees receives the platform's fee (the platform's internal
	// account in the sending currency); "" when there is none.
	PlatformFees string
	// ServiceFees and FX are the service's fee and conversion accounts.
	ServiceFees, FX string

	SendingCurrency, ReceivingCurrency string
	// Total is the sending total; FeesIncluded the fees it includes, of
	// which PlatformFee are the platform's and ServiceFee the service's.
	Total, FeesIncluded, PlatformFee, ServiceFee int64
	// Received is what the destination gets, in the receiving currency.
	Received int64
}

// CompletionLegs are the postings that complete the payment: each fee to
// its account and the net amount to the destination, through the FX
// account when it changes currency (or amount).
func (s Settlement) CompletionLegs() [][]accounts.Posting {
	var legs [][]accounts.Posting
	if s.PlatformFee > 0 {
		legs = append(legs, accounts.Transfer(s.Hold, s.PlatformFees, s.SendingCurrency, s.PlatformFee))
	}
	if s.ServiceFee > 0 {
		legs = append(legs, accounts.Transfer(s.Hold, s.ServiceFees, s.SendingCurrency, s.ServiceFee))
	}
	net := s.Total - s.FeesIncluded
	if s.SendingCurrency == s.ReceivingCurrency && net == s.Received {
		return append(legs, accounts.Transfer(s.Hold, s.Destination, s.SendingCurrency, net))
	}
	return append(legs, accounts.Transfer(s.Hold, s.FX, s.SendingCurrency, net),
		accounts.Transfer(s.FX, s.Destination, s.ReceivingCurrency, s.Received))
}

// ReturnLegs undo CompletionLegs for a payment that completed and came back
// (a bank return), paying the sender's account to: each leg
// runs backwards, so the fees come back from their accounts and the
// destination-currency leg returns through the FX account.
func (s Settlement) ReturnLegs(to string) [][]accounts.Posting {
	legs := s.CompletionLegs()
	for i, leg := range legs { // leg is Transfer(from, into, ...)
		from, into := leg[0].Account, leg[1].Account
		if from == s.Hold {
			from = to
		}
		legs[i] = accounts.Transfer(into, from, leg[1].Currency, leg[1].Amount)
	}
	return legs
}
