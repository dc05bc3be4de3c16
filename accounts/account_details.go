package accounts

import (
	"encoding/json"
	"fmt"

	"github.com/paygrid/payments/customers"
)

// Typed account details: the external account types users create most,
// as Go values whose AccountInfo method writes the reference's accountInfo
// object (accountType included) for ExternalAccountInput.AccountInfo:
//
//	in := payments.ExternalAccountInput{CustomerID: id, Currency: "USD",
//		AccountInfo: payments.USBankAccount{AccountNumber: "1234567890", RoutingNumber: "021000021",
//			Beneficiary: &payments.Beneficiary{Type: payments.BeneficiaryIndividual, FullName: "Jane Doe"}}.AccountInfo()}
//
// Any other accountType, or any member these values lack, is written as
// raw JSON, as before; both go through the same checks in CreateExternal,
// which these values do not repeat. The values also decode from a stored
// ExternalAccount's AccountInfo (json.Unmarshal; accountType and
// paymentRails are left out).

// AccountDetails is a typed accountInfo: USBankAccount, IBANAccount,
// UKBankAccount, CLABEAccount, PIXAccount, UPIAccount, CryptoWallet and
// LightningAccount.
type AccountDetails interface {
	// AccountInfo returns the reference's accountInfo JSON object, with
	// its accountType.
	AccountInfo() json.RawMessage
}

// BeneficiaryType says whether a beneficiary is a person or a business.
type BeneficiaryType string

// Beneficiary types (reference beneficiaryType).
const (
	BeneficiaryIndividual BeneficiaryType = "INDIVIDUAL"
	BeneficiaryBusiness   BeneficiaryType = "BUSINESS"
)

// Beneficiary is who holds a bank account or a wallet (reference
// <Currency>Beneficiary and BusinessBeneficiary): an INDIVIDUAL needs
// FullName, a BUSINESS LegalName. Some accountTypes need more of an
// individual (EUR_ACCOUNT: CountryOfResidence; wallets:
// CountryOfResidence).
type Beneficiary struct {
	Type               BeneficiaryType    `json:"beneficiaryType"`
	FullName           string             `json:"fullName,omitempty"`  // INDIVIDUAL
	BirthDate          string             `json:"birthDate,omitempty"` // INDIVIDUAL, YYYY-MM-DD
	Nationality        string             `json:"nationality,omitempty"`
	LegalName          string             `json:"legalName,omitempty"`          // BUSINESS
	RegistrationNumber string             `json:"registrationNumber,omitempty"` // BUSINESS
	TaxID              string             `json:"taxId,omitempty"`              // BUSINESS
	Email              string             `json:"email,omitempty"`
	PhoneNumber        string             `json:"phoneNumber,omitempty"` // E.164
	CountryOfResidence string             `json:"countryOfResidence,omitempty"`
	Address            *customers.Address `json:"address,omitempty"`
}

// USBankAccount is a US bank account (USD_ACCOUNT), paid by ACH, wire, RTP
// or FedNow.
type USBankAccount struct {
	AccountNumber   string       `json:"accountNumber"`
	RoutingNumber   string       `json:"routingNumber"` // the 9-digit ABA number
	BankName        string       `json:"bankName,omitempty"`
	BankAccountType string       `json:"bankAccountType,omitempty"` // CHECKING (the default) or SAVINGS
	Beneficiary     *Beneficiary `json:"beneficiary,omitempty"`     // required
}

// AccountInfo returns the USD_ACCOUNT accountInfo.
func (a USBankAccount) AccountInfo() json.RawMessage { return accountInfo("USD_ACCOUNT", a) }

// IBANAccount is a bank account named by its IBAN, paid by SEPA where the
// currency has it: Currency (default EUR) picks the accountType
// <Currency>_ACCOUNT among the IBAN ones: EUR, DKK, AED, ILS and TRY.
type IBANAccount struct {
	Currency    string       `json:"-"`
	IBAN        string       `json:"iban"`
	SwiftCode   string       `json:"swiftCode,omitempty"` // the BIC
	Beneficiary *Beneficiary `json:"beneficiary,omitempty"`
}

// AccountInfo returns the <Currency>_ACCOUNT accountInfo (EUR_ACCOUNT when
// Currency is empty).
func (a IBANAccount) AccountInfo() json.RawMessage {
	cur := a.Currency
	if cur == "" {
		cur = "EUR"
	}
	return accountInfo(cur+"_ACCOUNT", a)
}

// UKBankAccount is a UK bank account (GBP_ACCOUNT), paid by Faster
// Payments.
type UKBankAccount struct {
	SortCode      string       `json:"sortCode"`      // 6 digits
	AccountNumber string       `json:"accountNumber"` // 8 digits
	Beneficiary   *Beneficiary `json:"beneficiary,omitempty"`
}

// AccountInfo returns the GBP_ACCOUNT accountInfo.
func (a UKBankAccount) AccountInfo() json.RawMessage { return accountInfo("GBP_ACCOUNT", a) }

// CLABEAccount is a Mexican bank account named by its 18-digit CLABE
// (MXN_ACCOUNT), paid by SPEI.
type CLABEAccount struct {
	CLABE       string       `json:"clabeNumber"`
	Beneficiary *Beneficiary `json:"beneficiary,omitempty"`
}

// AccountInfo returns the MXN_ACCOUNT accountInfo.
func (a CLABEAccount) AccountInfo() json.RawMessage { return accountInfo("MXN_ACCOUNT", a) }

// PixKeyType is what a PIX key is.
type PixKeyType string

// PIX key types (reference pixKeyType).
const (
	PixKeyCPF    PixKeyType = "CPF"
	PixKeyCNPJ   PixKeyType = "CNPJ"
	PixKeyEmail  PixKeyType = "EMAIL"
	PixKeyPhone  PixKeyType = "PHONE"
	PixKeyRandom PixKeyType = "RANDOM"
)

// PIXAccount is a Brazilian account named by its PIX key (BRL_ACCOUNT),
// with the holder's CPF or CNPJ.
type PIXAccount struct {
	PixKey      string       `json:"pixKey"`
	PixKeyType  PixKeyType   `json:"pixKeyType"`
	TaxID       string       `json:"taxId"` // 11 (CPF) to 14 (CNPJ) digits
	Beneficiary *Beneficiary `json:"beneficiary,omitempty"`
}

// AccountInfo returns the BRL_ACCOUNT accountInfo.
func (a PIXAccount) AccountInfo() json.RawMessage { return accountInfo("BRL_ACCOUNT", a) }

// UPIAccount is an Indian account named by its UPI virtual payment
// address (INR_ACCOUNT), paid by UPI. An account paid by NEFT or RTGS
// (accountNumber and ifsc) is written as raw JSON.
type UPIAccount struct {
	VPA         string       `json:"vpa"` // name@bank
	BankName    string       `json:"bankName,omitempty"`
	Beneficiary *Beneficiary `json:"beneficiary,omitempty"`
}

// AccountInfo returns the INR_ACCOUNT accountInfo.
func (a UPIAccount) AccountInfo() json.RawMessage { return accountInfo("INR_ACCOUNT", a) }

// WalletType is the accountType of a crypto wallet: the chain its address
// is on. The token it holds (USDC, USDT, ...) is the external account's
// Currency.
type WalletType string

// Wallet accountTypes.
const (
	SolanaWallet   WalletType = "SOLANA_WALLET"
	EthereumWallet WalletType = "ETHEREUM_WALLET"
	BaseWallet     WalletType = "BASE_WALLET"
	PolygonWallet  WalletType = "POLYGON_WALLET"
	ArbitrumWallet WalletType = "ARBITRUM_WALLET"
	PlasmaWallet   WalletType = "PLASMA_WALLET"
	TronWallet     WalletType = "TRON_WALLET"
	SparkWallet    WalletType = "SPARK_WALLET"
)

// CryptoWallet is a wallet on a chain: a self-custody wallet (no
// VASPName; a FIRST_PARTY one proves its ownership before large payments)
// or one held at a VASP (GET /vasps). Beneficiary is optional for
// FIRST_PARTY wallets.
type CryptoWallet struct {
	Type        WalletType   `json:"-"`
	Address     string       `json:"address"` // EIP-55 on EVM chains, base58 on Solana and Tron
	VASPName    string       `json:"vaspName,omitempty"`
	Beneficiary *Beneficiary `json:"beneficiary,omitempty"`
}

// AccountInfo returns the wallet's accountInfo, of accountType Type.
func (a CryptoWallet) AccountInfo() json.RawMessage { return accountInfo(string(a.Type), a) }

// LightningAccount is a Lightning destination (LIGHTNING), paid in BTC:
// exactly one of a BOLT11 invoice (paid once), a BOLT12 offer or a
// lightning address.
type LightningAccount struct {
	Invoice          string `json:"invoice,omitempty"`
	Bolt12           string `json:"bolt12,omitempty"`
	LightningAddress string `json:"lightningAddress,omitempty"`
}

// AccountInfo returns the LIGHTNING accountInfo.
func (a LightningAccount) AccountInfo() json.RawMessage { return accountInfo("LIGHTNING", a) }

// Compile-time checks that every typed value is AccountDetails.
var (
	_ AccountDetails = USBankAccount{}
	_ AccountDetails = IBANAccount{}
	_ AccountDetails = UKBankAccount{}
	_ AccountDetails = CLABEAccount{}
	_ AccountDetails = PIXAccount{}
	_ AccountDetails = UPIAccount{}
	_ AccountDetails = CryptoWallet{}
	_ AccountDetails = LightningAccount{}
)

// accountInfo is v's JSON object with accountType typ as its first member.
func accountInfo(typ string, v any) json.RawMessage {
	head, _ := json.Marshal(typ) // a string always encodes
	body, err := json.Marshal(v)
	if err != nil { // the values hold strings only
		panic(fmt.Sprintf("accounts: encoding %s: %v", typ, err))
	}
	out := append([]byte(`{"accountType":`), head...)
	if len(body) > 2 {
		out = append(append(out, ','), body[1:]...)
	} else {
		out = append(out, '}')
	}
	return out
}
