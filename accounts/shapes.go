package accounts

// shape is a member's pattern, length bounds and enumeration as the public
// reference declares them (generated from its *AccountInfo schemas). A
// zero bound or an empty pattern or enumeration does not constrain.
type shape struct {
	pattern  string
	min, max int
	enum     []string
}

// shapes holds the reference's member shapes per accountType. A member
// missing here has no shape (checkShape accepts it) and is judged by
// checkMember alone, as wallets' addresses are. The shapes are the
// reference's, not this engine's choices: some phone patterns pin the
// country's calling code (IDR +62, KES +254, RWF +250, TZS +255, ZMW
// +260), and the others take any E.164 number.
var shapes = map[string]map[string]shape{
	"AED_ACCOUNT": {
		"iban":      {pattern: `^AE[0-9]{21}$`, min: 23, max: 23},
		"swiftCode": {pattern: `^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`, min: 8, max: 11},
	},
	"BDT_ACCOUNT": {
		"accountNumber": {min: 1, max: 34},
		"bankName":      {min: 1, max: 255},
		"branchCode":    {pattern: `^[0-9]{5}$`, min: 5, max: 5},
		"swiftCode":     {pattern: `^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`, min: 8, max: 11},
		"phoneNumber":   {pattern: `^\+[0-9]{6,14}$`, min: 7, max: 15},
	},
	"BRL_ACCOUNT": {
		"pixKey":     {min: 1, max: 77},
		"pixKeyType": {enum: []string{"CPF", "CNPJ", "EMAIL", "PHONE", "RANDOM"}},
		"taxId":      {pattern: `^[0-9]{11,14}$`, min: 11, max: 14},
	},
	"BWP_ACCOUNT": {
		"phoneNumber": {pattern: `^\+[0-9]{6,14}$`, min: 7, max: 15},
		"provider":    {min: 1, max: 255},
	},
	"CAD_ACCOUNT": {
		"bankCode":      {pattern: `^[0-9]{3}$`, min: 3, max: 3},
		"branchCode":    {pattern: `^[0-9]{5}$`, min: 5, max: 5},
		"accountNumber": {pattern: `^[0-9]{7,12}$`, min: 7, max: 12},
	},
	"CNY_ACCOUNT": {
		"accountNumber": {min: 1, max: 34},
		"bankName":      {min: 1, max: 255},
		"phoneNumber":   {pattern: `^\+[0-9]{6,14}$`, min: 7, max: 15},
	},
	"COP_ACCOUNT": {
		"accountNumber":   {min: 1, max: 34},
		"bankAccountType": {enum: []string{"CHECKING", "SAVINGS"}},
		"bankName":        {min: 1, max: 255},
		"phoneNumber":     {pattern: `^\+[0-9]{6,14}$`, min: 7, max: 15},
	},
	"DKK_ACCOUNT": {
		"iban":      {pattern: `^DK[0-9]{16}$`, min: 18, max: 18},
		"swiftCode": {pattern: `^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`, min: 8, max: 11},
	},
	"EGP_ACCOUNT": {
		"iban":        {pattern: `^EG[0-9]{27}$`, min: 29, max: 29},
		"bankName":    {min: 1, max: 255},
		"phoneNumber": {pattern: `^\+[0-9]{6,14}$`, min: 7, max: 15},
	},
	"EUR_ACCOUNT": {
		"iban":      {pattern: `^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$`, min: 15, max: 34},
		"swiftCode": {pattern: `^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`, min: 8, max: 11},
	},
	"GBP_ACCOUNT": {
		"sortCode":      {pattern: `^[0-9]{6}$`, min: 6, max: 6},
		"accountNumber": {pattern: `^[0-9]{8}$`, min: 8, max: 8},
	},
	"GHS_ACCOUNT": {
		"accountNumber": {min: 1, max: 34},
		"bankName":      {min: 1, max: 255},
		"phoneNumber":   {pattern: `^\+[0-9]{6,14}$`, min: 7, max: 15},
	},
	"GTQ_ACCOUNT": {
		"accountNumber":   {min: 1, max: 34},
		"bankAccountType": {enum: []string{"CHECKING", "SAVINGS"}},
		"bankName":        {min: 1, max: 255},
	},
	"HKD_ACCOUNT": {
		"bankName":      {min: 1, max: 255},
		"accountNumber": {min: 1, max: 34},
		"swiftCode":     {pattern: `^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`, min: 8, max: 11},
	},
	"HTG_ACCOUNT": {
		"phoneNumber": {pattern: `^\+[0-9]{6,14}$`, min: 7, max: 15},
	},
	"IDR_ACCOUNT": {
		"bankName":      {min: 1, max: 255},
		"accountNumber": {min: 1, max: 34},
		"swiftCode":     {pattern: `^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`, min: 8, max: 11},
		"phoneNumber":   {pattern: `^\+62[0-9]{9,12}$`, min: 7, max: 15},
	},
	"INR_ACCOUNT": {
		"vpa":           {pattern: `^[a-zA-Z0-9.\-_]+@[a-zA-Z0-9]+$`, min: 3, max: 255},
		"accountNumber": {pattern: `^[0-9]{9,18}$`, min: 9, max: 18},
		"ifsc":          {pattern: `^[A-Z]{4}0[A-Z0-9]{6}$`, min: 11, max: 11},
		"rail":          {min: 1, max: 32},
		"bankName":      {min: 1, max: 255},
	},
	"JMD_ACCOUNT": {
		"accountNumber":   {min: 1, max: 34},
		"branchCode":      {pattern: `^[0-9]{5}$`, min: 5, max: 5},
		"bankAccountType": {enum: []string{"CHECKING", "SAVINGS"}},
		"bankName":        {min: 1, max: 255},
	},
	"KES_ACCOUNT": {
		"phoneNumber": {pattern: `^\+254[0-9]{9}$`, min: 7, max: 15},
		"provider":    {min: 1, max: 255},
	},
	"MWK_ACCOUNT": {
		"phoneNumber": {pattern: `^\+[0-9]{6,14}$`, min: 7, max: 15},
		"provider":    {min: 1, max: 255},
	},
	"MXN_ACCOUNT": {
		"clabeNumber": {pattern: `^[0-9]{18}$`, min: 18, max: 18},
	},
	"MYR_ACCOUNT": {
		"bankName":      {min: 1, max: 255},
		"accountNumber": {min: 1, max: 34},
		"swiftCode":     {pattern: `^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`, min: 8, max: 11},
	},
	"NGN_ACCOUNT": {
		"accountNumber": {pattern: `^[0-9]{10}$`, min: 10, max: 10},
		"bankName":      {min: 1, max: 255},
	},
	"PHP_ACCOUNT": {
		"bankName":      {min: 1, max: 255},
		"accountNumber": {pattern: `^[0-9]{8,16}$`, min: 8, max: 16},
	},
	"PKR_ACCOUNT": {
		"bankName":      {min: 1, max: 255},
		"accountNumber": {min: 1, max: 34},
		"iban":          {pattern: `^PK[0-9]{2}[A-Z]{4}[0-9]{16}$`, min: 24, max: 24},
		"phoneNumber":   {pattern: `^\+[0-9]{6,14}$`, min: 7, max: 15},
	},
	"RWF_ACCOUNT": {
		"phoneNumber": {pattern: `^\+250[0-9]{9}$`, min: 7, max: 15},
		"provider":    {min: 1, max: 255},
	},
	"SGD_ACCOUNT": {
		"bankName":      {min: 1, max: 255},
		"accountNumber": {min: 1, max: 34},
		"swiftCode":     {pattern: `^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`, min: 8, max: 11},
	},
	"SLV_ACCOUNT": {
		"bankName":        {min: 1, max: 255},
		"accountNumber":   {min: 1, max: 34},
		"bankAccountType": {enum: []string{"CHECKING", "SAVINGS"}},
		"phoneNumber":     {pattern: `^\+[0-9]{6,14}$`, min: 7, max: 15},
	},
	"THB_ACCOUNT": {
		"bankName":      {min: 1, max: 255},
		"accountNumber": {min: 1, max: 34},
		"swiftCode":     {pattern: `^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`, min: 8, max: 11},
	},
	"TZS_ACCOUNT": {
		"phoneNumber": {pattern: `^\+255[0-9]{9}$`, min: 7, max: 15},
		"provider":    {min: 1, max: 255},
	},
	"UGX_ACCOUNT": {
		"phoneNumber": {pattern: `^\+[0-9]{6,14}$`, min: 7, max: 15},
		"provider":    {min: 1, max: 255},
	},
	"USD_ACCOUNT": {
		"accountNumber":             {min: 1, max: 34},
		"routingNumber":             {pattern: `^[0-9]{9}$`, min: 9, max: 9},
		"bankName":                  {min: 1, max: 140},
		"bankAccountType":           {enum: []string{"CHECKING", "SAVINGS"}},
		"intermediaryBankName":      {min: 1, max: 140},
		"intermediaryRoutingNumber": {pattern: `^[0-9]{9}$`, min: 9, max: 9},
		"fiToFiInformation":         {max: 210},
	},
	"VND_ACCOUNT": {
		"bankName":      {min: 1, max: 255},
		"accountNumber": {min: 1, max: 34},
		"swiftCode":     {pattern: `^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`, min: 8, max: 11},
	},
	"XAF_ACCOUNT": {
		"phoneNumber": {pattern: `^\+[0-9]{6,14}$`, min: 7, max: 15},
		"provider":    {min: 1, max: 255},
		"region":      {pattern: `^[A-Z]{2}$`, min: 2, max: 2, enum: []string{"CM", "CG"}},
	},
	"XOF_ACCOUNT": {
		"phoneNumber": {pattern: `^\+[0-9]{6,14}$`, min: 7, max: 15},
		"provider":    {min: 1, max: 255},
		"region":      {pattern: `^[A-Z]{2}$`, min: 2, max: 2, enum: []string{"BJ", "CI", "SN", "TG"}},
	},
	"ZAR_ACCOUNT": {
		"accountNumber": {pattern: `^[0-9]{9,13}$`, min: 9, max: 13},
		"bankName":      {min: 1, max: 255},
	},
	"ZMW_ACCOUNT": {
		"phoneNumber": {pattern: `^\+260[0-9]{9}$`, min: 7, max: 15},
		"provider":    {min: 1, max: 255},
	},
	"SWIFT_ACCOUNT": {
		"country":       {pattern: `^[A-Z]{2}$`, min: 2, max: 2},
		"swiftCode":     {pattern: `^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`, min: 8, max: 11},
		"bankName":      {min: 1, max: 255},
		"accountNumber": {min: 1, max: 34},
		"iban":          {pattern: `^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$`, min: 15, max: 34},
	},
}
