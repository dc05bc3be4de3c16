package money

import (
	"sort"
	"strconv"
	"strings"
)

// iso4217 lists the active ISO 4217 currencies as "CODE exponent symbol|Name".
// Exponents are ISO's minor units (IDR 2, COP 2), not CLDR's display digits.
const iso4217 = `AED 2 د.إ|UAE Dirham
AFN 2 ؋|Afghani
ALL 2 L|Lek
AMD 2 ֏|Armenian Dram
ANG 2 ƒ|Netherlands Antillean Guilder
AOA 2 Kz|Kwanza
ARS 2 $|Argentine Peso
AUD 2 $|Australian Dollar
AWG 2 ƒ|Aruban Florin
AZN 2 ₼|Azerbaijan Manat
BAM 2 KM|Convertible Mark
BBD 2 $|Barbados Dollar
BDT 2 ৳|Taka
BGN 2 лв|Bulgarian Lev
BHD 3 .د.ب|Bahraini Dinar
BIF 0 FBu|Burundi Franc
BMD 2 $|Bermudian Dollar
BND 2 $|Brunei Dollar
BOB 2 Bs|Boliviano
BRL 2 R$|Brazilian Real
BSD 2 $|Bahamian Dollar
BTN 2 Nu.|Ngultrum
BWP 2 P|Pula
BYN 2 Br|Belarusian Ruble
BZD 2 $|Belize Dollar
CAD 2 $|Canadian Dollar
CDF 2 FC|Congolese Franc
CHF 2 CHF|Swiss Franc
CLF 4 UF|Unidad de Fomento
CLP 0 $|Chilean Peso
CNY 2 ¥|Yuan Renminbi
COP 2 $|Colombian Peso
CRC 2 ₡|Costa Rican Colon
CUP 2 $|Cuban Peso
CVE 2 $|Cabo Verde Escudo
CZK 2 Kč|Czech Koruna
DJF 0 Fdj|Djibouti Franc
DKK 2 kr|Danish Krone
DOP 2 $|Dominican Peso
DZD 2 د.ج|Algerian Dinar
EGP 2 £|Egyptian Pound
ERN 2 Nfk|Nakfa
ETB 2 Br|Ethiopian Birr
EUR 2 €|Euro
FJD 2 $|Fiji Dollar
FKP 2 £|Falkland Islands Pound
GBP 2 £|Pound Sterling
GEL 2 ₾|Lari
GHS 2 ₵|Ghana Cedi
GIP 2 £|Gibraltar Pound
GMD 2 D|Dalasi
GNF 0 FG|Guinean Franc
GTQ 2 Q|Quetzal
GYD 2 $|Guyana Dollar
HKD 2 $|Hong Kong Dollar
HNL 2 L|Lempira
HTG 2 G|Gourde
HUF 2 Ft|Forint
IDR 2 Rp|Rupiah
ILS 2 ₪|New Israeli Sheqel
INR 2 ₹|Indian Rupee
IQD 3 ع.د|Iraqi Dinar
IRR 2 ﷼|Iranian Rial
ISK 0 kr|Iceland Krona
JMD 2 $|Jamaican Dollar
JOD 3 د.ا|Jordanian Dinar
JPY 0 ¥|Yen
KES 2 KSh|Kenyan Shilling
KGS 2 с|Som
KHR 2 ៛|Riel
KMF 0 CF|Comorian Franc
KPW 2 ₩|North Korean Won
KRW 0 ₩|Won
KWD 3 د.ك|Kuwaiti Dinar
KYD 2 $|Cayman Islands Dollar
KZT 2 ₸|Tenge
LAK 2 ₭|Lao Kip
LBP 2 ل.ل|Lebanese Pound
LKR 2 Rs|Sri Lanka Rupee
LRD 2 $|Liberian Dollar
LSL 2 L|Loti
LYD 3 ل.د|Libyan Dinar
MAD 2 د.م.|Moroccan Dirham
MDL 2 L|Moldovan Leu
MGA 2 Ar|Malagasy Ariary
MKD 2 ден|Denar
MMK 2 K|Kyat
MNT 2 ₮|Tugrik
MOP 2 P|Pataca
MRU 2 UM|Ouguiya
MUR 2 ₨|Mauritius Rupee
MVR 2 Rf|Rufiyaa
MWK 2 MK|Malawi Kwacha
MXN 2 $|Mexican Peso
MYR 2 RM|Malaysian Ringgit
MZN 2 MT|Mozambique Metical
NAD 2 $|Namibia Dollar
NGN 2 ₦|Naira
NIO 2 C$|Cordoba Oro
NOK 2 kr|Norwegian Krone
NPR 2 ₨|Nepalese Rupee
NZD 2 $|New Zealand Dollar
OMR 3 ر.ع.|Rial Omani
PAB 2 B/.|Balboa
PEN 2 S/|Sol
PGK 2 K|Kina
PHP 2 ₱|Philippine Peso
PKR 2 ₨|Pakistan Rupee
PLN 2 zł|Zloty
PYG 0 ₲|Guarani
QAR 2 ر.ق|Qatari Rial
RON 2 lei|Romanian Leu
RSD 2 дин|Serbian Dinar
RUB 2 ₽|Russian Ruble
RWF 0 FRw|Rwanda Franc
SAR 2 ر.س|Saudi Riyal
SBD 2 $|Solomon Islands Dollar
SCR 2 ₨|Seychelles Rupee
SDG 2 ج.س|Sudanese Pound
SEK 2 kr|Swedish Krona
SGD 2 $|Singapore Dollar
SHP 2 £|Saint Helena Pound
SLE 2 Le|Leone
SOS 2 Sh|Somali Shilling
SRD 2 $|Surinam Dollar
SSP 2 £|South Sudanese Pound
STN 2 Db|Dobra
SVC 2 ₡|El Salvador Colon
SYP 2 £|Syrian Pound
SZL 2 L|Lilangeni
THB 2 ฿|Baht
TJS 2 SM|Somoni
TMT 2 m|Turkmenistan New Manat
TND 3 د.ت|Tunisian Dinar
TOP 2 T$|Pa’anga
TRY 2 ₺|Turkish Lira
TTD 2 $|Trinidad and Tobago Dollar
TWD 2 $|New Taiwan Dollar
TZS 2 TSh|Tanzanian Shilling
UAH 2 ₴|Hryvnia
UGX 0 USh|Uganda Shilling
USD 2 $|United States Dollar
UYU 2 $|Peso Uruguayo
UZS 2 soʻm|Uzbekistan Sum
VES 2 Bs.|Bolívar Soberano
VND 0 ₫|Dong
VUV 0 VT|Vatu
WST 2 T|Tala
XAF 0 FCFA|CFA Franc BEAC
XCD 2 $|East Caribbean Dollar
XOF 0 CFA|CFA Franc BCEAO
XPF 0 ₣|CFP Franc
YER 2 ﷼|Yemeni Rial
ZAR 2 R|Rand
ZMW 2 ZK|Zambian Kwacha
ZWG 2 ZiG|Zimbabwe Gold`

// crypto lists the crypto tickers the reference uses, with their base units:
// BTC in satoshis, stablecoins in millionths.
const crypto = `BTC 8 ₿|Bitcoin
USDC 6 |USD Coin
USDT 6 |Tether USD
USDB 6 |USDB
SOL 9 ◎|Solana`

var (
	table       = map[string]Currency{}
	sortedCodes []string
)

func init() {
	parse := func(src string, isCrypto bool) {
		for _, line := range strings.Split(src, "\n") {
			head, name, _ := strings.Cut(line, "|")
			f := strings.SplitN(head, " ", 3)
			dec, err := strconv.Atoi(f[1])
			if err != nil {
				panic("money: bad currency table line " + line)
			}
			table[f[0]] = Currency{Code: f[0], Name: name, Symbol: f[2], Decimals: dec, Crypto: isCrypto}
			sortedCodes = append(sortedCodes, f[0])
		}
	}
	parse(iso4217, false)
	parse(crypto, true)
	sort.Strings(sortedCodes)
}
