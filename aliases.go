package payments

import (
	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/agents"
	"github.com/paygrid/payments/cards"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/quotes"
	"github.com/paygrid/payments/rails"
	"github.com/paygrid/payments/stablecoins"
	"github.com/paygrid/payments/wallets"
)

// Moved to github.com/paygrid/payments/internal/engine.

var Balance = engine.Balance
var CheckLedger = engine.CheckLedger

type Claimer = engine.Claimer
type Code = engine.Code

const CodeAccountLocked = engine.CodeAccountLocked
const CodeAccountNotFound = engine.CodeAccountNotFound
const CodeAmountOutOfRange = engine.CodeAmountOutOfRange
const CodeAuthMethodNotFound = engine.CodeAuthMethodNotFound
const CodeBankAccountValidationPending = engine.CodeBankAccountValidationPending
const CodeBeneficiaryTrusted = engine.CodeBeneficiaryTrusted
const CodeBodyTooLarge = engine.CodeBodyTooLarge
const CodeBulkUploadJobNotFound = engine.CodeBulkUploadJobNotFound
const CodeCardAlreadyClosed = engine.CodeCardAlreadyClosed
const CodeCardLimitReached = engine.CodeCardLimitReached
const CodeCardNotMutable = engine.CodeCardNotMutable
const CodeCardholderKycNotApproved = engine.CodeCardholderKycNotApproved
const CodeConflict = engine.CodeConflict
const CodeCounterpartyNotAllowed = engine.CodeCounterpartyNotAllowed
const CodeCustomerDeleted = engine.CodeCustomerDeleted
const CodeCustomerNotFound = engine.CodeCustomerNotFound
const CodeDocumentAlreadyExists = engine.CodeDocumentAlreadyExists
const CodeDocumentHolderNotFound = engine.CodeDocumentHolderNotFound
const CodeDocumentRejectedDataMismatch = engine.CodeDocumentRejectedDataMismatch
const CodeDocumentRejectedExpired = engine.CodeDocumentRejectedExpired
const CodeDocumentRejectedIncomplete = engine.CodeDocumentRejectedIncomplete
const CodeDocumentRejectedLowQuality = engine.CodeDocumentRejectedLowQuality
const CodeDocumentRejectedSuspectedFraud = engine.CodeDocumentRejectedSuspectedFraud
const CodeDocumentRejectedUnsuitable = engine.CodeDocumentRejectedUnsuitable
const CodeDuplicateExternalAccount = engine.CodeDuplicateExternalAccount
const CodeEmailOtpCredentialAlreadyExists = engine.CodeEmailOtpCredentialAlreadyExists
const CodeEndUserTermsNotAccepted = engine.CodeEndUserTermsNotAccepted
const CodeEndUserTermsVersionNotFound = engine.CodeEndUserTermsVersionNotFound
const CodeExternalAccountVerificationReq = engine.CodeExternalAccountVerificationReq
const CodeForbidden = engine.CodeForbidden
const CodeFundingSourceIneligible = engine.CodeFundingSourceIneligible
const CodeInsufficientFunds = engine.CodeInsufficientFunds
const CodeInternalError = engine.CodeInternalError
const CodeInvalidAmount = engine.CodeInvalidAmount
const CodeInvalidBankAccount = engine.CodeInvalidBankAccount
const CodeInvalidCurrency = engine.CodeInvalidCurrency
const CodeInvalidInput = engine.CodeInvalidInput
const CodeInvalidReceiver = engine.CodeInvalidReceiver
const CodeInvalidRequestFormat = engine.CodeInvalidRequestFormat
const CodeInvalidSignature = engine.CodeInvalidSignature
const CodeInvalidStateTransition = engine.CodeInvalidStateTransition
const CodeInvalidTimestamp = engine.CodeInvalidTimestamp
const CodeInvalidUmaAddress = engine.CodeInvalidUmaAddress
const CodeInvitationAlreadyClaimed = engine.CodeInvitationAlreadyClaimed
const CodeInvitationCancelled = engine.CodeInvitationCancelled
const CodeInvitationNotFound = engine.CodeInvitationNotFound
const CodeInvitationsNotConfigured = engine.CodeInvitationsNotConfigured
const CodeLookupRequestFailed = engine.CodeLookupRequestFailed
const CodeLookupRequestNotFound = engine.CodeLookupRequestNotFound
const CodeMethodNotAllowed = engine.CodeMethodNotAllowed
const CodeMissingMandatoryUserInfo = engine.CodeMissingMandatoryUserInfo
const CodeMissingRequiredUmaParameters = engine.CodeMissingRequiredUmaParameters
const CodeNotFound = engine.CodeNotFound
const CodeNotImplemented = engine.CodeNotImplemented

var CodeOf = engine.CodeOf

const CodePasskeyAlreadyEnrolled = engine.CodePasskeyAlreadyEnrolled
const CodePasskeyCredentialAlreadyExists = engine.CodePasskeyCredentialAlreadyExists
const CodePlatformNotFound = engine.CodePlatformNotFound
const CodeQuoteExpired = engine.CodeQuoteExpired
const CodeQuoteNotFound = engine.CodeQuoteNotFound
const CodeQuoteRateUnavailable = engine.CodeQuoteRateUnavailable
const CodeQuoteRequestFailed = engine.CodeQuoteRequestFailed
const CodeRateLimited = engine.CodeRateLimited
const CodeReferenceNotFound = engine.CodeReferenceNotFound
const CodeRequestIDMissing = engine.CodeRequestIDMissing
const CodeRequestNotFound = engine.CodeRequestNotFound
const CodeScaSessionRequired = engine.CodeScaSessionRequired
const CodeSelfPayment = engine.CodeSelfPayment
const CodeSenderNotAccepted = engine.CodeSenderNotAccepted
const CodeServiceSwitchError = engine.CodeServiceSwitchError
const CodeServiceUnavailable = engine.CodeServiceUnavailable
const CodeSessionNotFound = engine.CodeSessionNotFound
const CodeSmsOtpCredentialAlreadyExists = engine.CodeSmsOtpCredentialAlreadyExists
const CodeStablecoinAmountNotRepresentable = engine.CodeStablecoinAmountNotRepresentable
const CodeStablecoinBurnSourceNotSupported = engine.CodeStablecoinBurnSourceNotSupported
const CodeStablecoinExternalAccountLinkFailed = engine.CodeStablecoinExternalAccountLinkFailed
const CodeStablecoinExternalAccountLinkMethodReq = engine.CodeStablecoinExternalAccountLinkMethodReq
const CodeStablecoinExternalAccountNotFound = engine.CodeStablecoinExternalAccountNotFound
const CodeStablecoinExternalAccountNotLinked = engine.CodeStablecoinExternalAccountNotLinked
const CodeStablecoinExternalAccountNotSupported = engine.CodeStablecoinExternalAccountNotSupported
const CodeStablecoinExternalAccountProviderLinkFail = engine.CodeStablecoinExternalAccountProviderLinkFail
const CodeStablecoinExternalAccountProviderLinkReq = engine.CodeStablecoinExternalAccountProviderLinkReq
const CodeStablecoinNotFound = engine.CodeStablecoinNotFound
const CodeStablecoinNotProvisioned = engine.CodeStablecoinNotProvisioned
const CodeStablecoinOperationNotFound = engine.CodeStablecoinOperationNotFound
const CodeStablecoinOperationNotSupported = engine.CodeStablecoinOperationNotSupported
const CodeStablecoinProviderAccountInvalid = engine.CodeStablecoinProviderAccountInvalid
const CodeStablecoinProviderAccountNotFound = engine.CodeStablecoinProviderAccountNotFound
const CodeStablecoinProviderAccountRevoked = engine.CodeStablecoinProviderAccountRevoked
const CodeStablecoinProviderAccountSelectionRequired = engine.CodeStablecoinProviderAccountSelectionRequired
const CodeStablecoinProviderError = engine.CodeStablecoinProviderError
const CodeStablecoinProviderSourceNotLinked = engine.CodeStablecoinProviderSourceNotLinked
const CodeStablecoinServiceEnablementNotRequestable = engine.CodeStablecoinServiceEnablementNotRequestable
const CodeStablecoinServiceOperationsNotEnabled = engine.CodeStablecoinServiceOperationsNotEnabled
const CodeStablecoinSymbolAlreadyExists = engine.CodeStablecoinSymbolAlreadyExists
const CodeStablecoinTokenIdentifierAlreadyExists = engine.CodeStablecoinTokenIdentifierAlreadyExists
const CodeStablecoinVerificationFailed = engine.CodeStablecoinVerificationFailed
const CodeTokenNotFound = engine.CodeTokenNotFound
const CodeTransactionNotCancellable = engine.CodeTransactionNotCancellable
const CodeTransactionNotFound = engine.CodeTransactionNotFound
const CodeTransactionNotPendingPlatformApproval = engine.CodeTransactionNotPendingPlatformApproval
const CodeTransactionSizeLimitExceeded = engine.CodeTransactionSizeLimitExceeded
const CodeUmaAddressExists = engine.CodeUmaAddressExists
const CodeUmaNotFound = engine.CodeUmaNotFound
const CodeUnauthorized = engine.CodeUnauthorized
const CodeUnsupportedMediaType = engine.CodeUnsupportedMediaType
const CodeUserNotFound = engine.CodeUserNotFound
const CodeUserNotReady = engine.CodeUserNotReady
const CodeVelocityLimitExceeded = engine.CodeVelocityLimitExceeded
const CodeVerificationNotFound = engine.CodeVerificationNotFound
const CodeWalletNotProvisioned = engine.CodeWalletNotProvisioned
const CodeWalletSignatureBodyMismatch = engine.CodeWalletSignatureBodyMismatch
const CodeWalletSignatureInvalid = engine.CodeWalletSignatureInvalid
const CodeWalletSignatureMalformed = engine.CodeWalletSignatureMalformed
const CodeWalletSignatureMissing = engine.CodeWalletSignatureMissing
const CodeWebhookDeliveryError = engine.CodeWebhookDeliveryError
const CodeWebhookEndpointNotSet = engine.CodeWebhookEndpointNotSet

var Codes = engine.Codes
var ContendedKeys = engine.ContendedKeys

type DeadLetter = engine.DeadLetter

const DefaultLimit = engine.DefaultLimit

type Delivery = engine.Delivery

const DeliveryDelivered = engine.DeliveryDelivered
const DeliveryFailed = engine.DeliveryFailed

type DeliveryFilter = engine.DeliveryFilter

const DeliveryPending = engine.DeliveryPending

var ErrClosed = engine.ErrClosed
var ErrConflict = engine.ErrConflict
var ErrNotFound = engine.ErrNotFound
var ErrPermanent = engine.ErrPermanent
var ErrReadOnly = engine.ErrReadOnly

type Error = engine.Error

var Errorf = engine.Errorf

type Event = engine.Event

const EventTest = engine.EventTest

type EventType = engine.EventType
type FieldError = engine.FieldError
type Idempotency = engine.Idempotency

var Invalid = engine.Invalid
var InvalidAs = engine.InvalidAs

type LedgerEntry = engine.LedgerEntry
type ListParams = engine.ListParams

const MaxIdempotencyKeyLength = engine.MaxIdempotencyKeyLength
const MaxLimit = engine.MaxLimit

var MessageOf = engine.MessageOf

type Notifier = engine.Notifier
type NotifierFunc = engine.NotifierFunc
type Page[T any] = engine.Page[T]

var Post = engine.Post

type Posting = engine.Posting

var PrefixEnd = engine.PrefixEnd

type RecordKey = engine.RecordKey
type RetryPolicy = engine.RetryPolicy
type ScanOptions = engine.ScanOptions
type Store = engine.Store
type TestWebhookResult = engine.TestWebhookResult
type Tx = engine.Tx
type WebhookDelivery = engine.WebhookDelivery
type WebhookSender = engine.WebhookSender
type Webhooks = engine.Webhooks

var WithContended = engine.WithContended

// PlatformOwner is the owner key of the platform's own accounts.
const PlatformOwner = engine.PlatformOwner

// Moved to github.com/paygrid/payments/rails.

type AccountCheck = rails.AccountCheck
type BeneficiaryVerifiedData = rails.BeneficiaryVerifiedData
type ExternalAccount = rails.ExternalAccount
type ExternalAccountStatus = rails.ExternalAccountStatus

const ExternalActive = rails.ExternalActive
const ExternalInactive = rails.ExternalInactive
const ExternalPending = rails.ExternalPending
const ExternalPendingOwnershipVerification = rails.ExternalPendingOwnershipVerification
const ExternalUnderReview = rails.ExternalUnderReview
const ExternalUnverified = rails.ExternalUnverified

type OutgoingPayment = rails.OutgoingPayment
type PullRequest = rails.PullRequest
type Puller = rails.Puller
type Rail = rails.Rail

const RailAccepted = rails.Accepted
const RailCompleted = rails.Completed
const RailFailed = rails.Failed

type RailOutcome = rails.Outcome
type RailReport = rails.Report

const RailReturned = rails.Returned

type Reporter = rails.Reporter

// Moved to github.com/paygrid/payments/platform.

type CardTokenization2FAConfig = platform.CardTokenization2FAConfig
type CounterpartyField = platform.CounterpartyField
type CreateTokenRequest = platform.CreateTokenRequest
type CreatedToken = platform.CreatedToken
type CurrencyConfig = platform.CurrencyConfig

var CustomerInfoFields = platform.CustomerInfoFields
var DefaultCurrencies = platform.DefaultCurrencies

type EmbeddedWalletConfig = platform.EmbeddedWalletConfig
type FeeConfig = platform.FeeConfig
type FixedFee = platform.FixedFee

var InRange = platform.InRange

const PermManage = platform.PermManage
const PermTransact = platform.PermTransact
const PermView = platform.PermView

type Permission = platform.Permission
type Platform = platform.Service
type PlatformConfig = platform.Config
type PlatformConfigUpdate = platform.ConfigUpdate
type PlatformSeed = platform.Seed
type Token = platform.Token
type TokenFilter = platform.TokenFilter

// Moved to github.com/paygrid/payments/customers.

type AgreementConsent = customers.AgreementConsent

const AgreementProviderEndUserTerms = customers.AgreementProviderEndUserTerms

type BeneficialOwner = customers.BeneficialOwner
type BulkJob = customers.BulkJob
type BulkProgress = customers.BulkProgress
type BulkRowError = customers.BulkRowError

const ChannelEmail = customers.ChannelEmail
const ChannelPhone = customers.ChannelPhone

type CodeMessage = customers.CodeMessage
type CodeSender = customers.CodeSender

const ContactCodeAttempts = customers.ContactCodeAttempts
const ContactCodeTTL = customers.ContactCodeTTL
const ContactPending = customers.ContactPending

type ContactVerification = customers.ContactVerification

const ContactVerified = customers.ContactVerified

var CurrentEndUserTerms = customers.CurrentEndUserTerms

type Customer = customers.Customer

const CustomerBusiness = customers.CustomerBusiness

type CustomerFilter = customers.CustomerFilter

const CustomerIndividual = customers.CustomerIndividual

type CustomerInput = customers.CustomerInput
type CustomerType = customers.CustomerType
type Customers = customers.Service
type Document = customers.Document
type DocumentUpload = customers.DocumentUpload
type Documents = customers.Documents
type EndUserTerms = customers.EndUserTerms

var EndUserTermsVersions = customers.EndUserTermsVersions

const EventFailedLoginAttempt = customers.EventFailedLoginAttempt
const EventResetPasswordCompleted = customers.EventResetPasswordCompleted
const GlobalAccountCurrency = customers.GlobalAccountCurrency
const KYCApproved = customers.KYCApproved

type KYCDecision = customers.KYCDecision

const KYCHold = customers.KYCHold

type KYCLink = customers.KYCLink

const KYCPending = customers.KYCPending

type KYCProvider = customers.KYCProvider

const KYCRejected = customers.KYCRejected

type KYCStatus = customers.KYCStatus
type KYCSubmission = customers.KYCSubmission

const KYCUnverified = customers.KYCUnverified
const MaxDocumentBytes = customers.MaxDocumentBytes

type Mobile = customers.Mobile
type OwnerInput = customers.OwnerInput
type OwnerPersonalInfo = customers.OwnerPersonalInfo

var OwnerRoles = customers.OwnerRoles

type ScaAuthorization = customers.ScaAuthorization

const ScaEnrollTTL = customers.ScaEnrollTTL

type ScaEnrollment = customers.ScaEnrollment
type ScaFactorConfirm = customers.ScaFactorConfirm
type ScaFactorConfirmed = customers.ScaFactorConfirmed
type ScaFactorList = customers.ScaFactorList
type ScaFactorView = customers.ScaFactorView
type ScaLoginComplete = customers.ScaLoginComplete
type ScaLoginStart = customers.ScaLoginStart

const ScaLoginTTL = customers.ScaLoginTTL
const ScaMaxSends = customers.ScaMaxSends
const ScaResendInterval = customers.ScaResendInterval

type ScaSession = customers.ScaSession

const ScaSessionTTL = customers.ScaSessionTTL

type SecurityState = customers.SecurityState
type TwoFactorResetStart = customers.TwoFactorResetStart
type TwoFactorResetStatus = customers.TwoFactorResetStatus
type Verification = customers.Verification

const VerificationApproved = customers.VerificationApproved

type VerificationError = customers.VerificationError

const VerificationInProgress = customers.VerificationInProgress
const VerificationPendingManualReview = customers.VerificationPendingManualReview
const VerificationReadyForVerification = customers.VerificationReadyForVerification
const VerificationRejected = customers.VerificationRejected
const VerificationResolveErrors = customers.VerificationResolveErrors

type VerificationStatus = customers.VerificationStatus

// Moved to github.com/paygrid/payments/accounts.

type AccountType = accounts.AccountType
type Accounts = accounts.Service
type CurrencyAmount = accounts.CurrencyAmount
type CurrencyInfo = accounts.CurrencyInfo

const CustomerScope = accounts.CustomerScope
const EmbeddedWallet = accounts.EmbeddedWallet

type ExternalAccountFilter = accounts.ExternalAccountFilter
type ExternalAccountInput = accounts.ExternalAccountInput
type InternalAccount = accounts.InternalAccount
type InternalAccountFilter = accounts.InternalAccountFilter
type InternalAccountView = accounts.InternalAccountView

const InternalCrypto = accounts.InternalCrypto
const InternalFiat = accounts.InternalFiat
const LivenessDelay = accounts.LivenessDelay
const MaxSandboxFunding = accounts.MaxSandboxFunding
const MethodLiveness = accounts.MethodLiveness
const MethodWalletSignature = accounts.MethodWalletSignature

type OwnershipChallenge = accounts.OwnershipChallenge

const OwnershipThreshold = accounts.OwnershipThreshold

type PaymentInstructions = accounts.PaymentInstructions

const PlatformScope = accounts.PlatformScope

type SandboxAccounts = accounts.Sandbox

const SandboxFundingAccount = accounts.SandboxFundingAccount

type ScaChallenge = accounts.ScaChallenge
type Scope = accounts.Scope

const SignatureChallengeTTL = accounts.SignatureChallengeTTL

type TrustResult = accounts.TrustResult
type TrustStart = accounts.TrustStart

// QuoteStatus is a quote's lifecycle state (spec 3.2); its state machine
// is in package quotes.
type QuoteStatus = quotes.Status

const QuotePending = quotes.Pending

const QuotePendingAuthorization = quotes.PendingAuthorization

const QuoteProcessing = quotes.Processing

const QuoteCompleted = quotes.Completed

const QuoteFailed = quotes.Failed

const QuoteExpired = quotes.Expired

// TransactionStatus is a transaction's lifecycle state (reference
// TransactionStatus); its state machine is in package quotes.
type TransactionStatus = quotes.TxStatus

const TxPending = quotes.TxPending

const TxPendingAuthorization = quotes.TxPendingAuthorization

const TxProcessing = quotes.TxProcessing

const TxCompleted = quotes.TxCompleted

const TxFailed = quotes.TxFailed

const TxExpired = quotes.TxExpired

const TxRejected = quotes.TxRejected

// Moved to github.com/paygrid/payments/quotes.

const ApprovalWindow = quotes.ApprovalWindow
const ApproveIncoming = quotes.ApproveIncoming

type CardMerchant = quotes.CardMerchant
type CardPullSummary = quotes.CardPullSummary
type CardSummary = quotes.CardSummary
type CardTransaction = quotes.CardTransaction
type Crypto = quotes.Crypto
type Decision = quotes.Decision
type Directory = quotes.Directory
type Discovery = quotes.Discovery

const EventInvitationClaimed = quotes.EventInvitationClaimed

type ExchangeRate = quotes.ExchangeRate
type ExecuteOptions = quotes.ExecuteOptions
type FeeOverride = quotes.FeeOverride
type Invitation = quotes.Invitation

const InvitationCancelled = quotes.InvitationCancelled
const InvitationClaimed = quotes.InvitationClaimed
const InvitationExpired = quotes.InvitationExpired
const InvitationPending = quotes.InvitationPending

type InvitationRequest = quotes.InvitationRequest

const InvitationURLBase = quotes.InvitationURLBase

type Invitations = quotes.Invitations
type Lookup = quotes.Lookup
type LookupCurrency = quotes.LookupCurrency

const LookupTTL = quotes.LookupTTL

type Lookups = quotes.Lookups

const MaxDescription = quotes.MaxDescription
const MaxRemittanceInformation = quotes.MaxRemittanceInformation

type PayerDataField = quotes.PayerDataField

var PaymentRails = quotes.PaymentRails
var PullableAccountTypes = quotes.PullableAccountTypes
var PurposesOfPayment = quotes.PurposesOfPayment

type Quote = quotes.Quote
type QuoteDestination = quotes.Destination
type QuoteFilter = quotes.Filter
type QuoteRequest = quotes.Request
type QuoteSCA = quotes.Authorizations
type QuoteSource = quotes.Source
type Quotes = quotes.Service
type Rails = quotes.Rails

const RateCacheTTL = quotes.RateCacheTTL

type RateDetails = quotes.RateDetails
type RateFees = quotes.RateFees
type RateQuery = quotes.RateQuery
type RateSource = quotes.RateSource
type ReceiveRequest = quotes.ReceiveRequest
type Refund = quotes.Refund

const RejectIncoming = quotes.RejectIncoming

type SandboxPayments = quotes.Sandbox

const SandboxSlowIncoming = quotes.SandboxSlowIncoming
const ScaChallengeTTL = quotes.ScaChallengeTTL

type Transaction = quotes.Transaction
type TransactionFilter = quotes.TransactionFilter
type Transactions = quotes.Transactions
type TransferInRequest = quotes.TransferInRequest
type TransferOutRequest = quotes.TransferOutRequest
type TxParty = quotes.TxParty
type UMAProvider = quotes.UMAProvider
type UMAReceiver = quotes.UMAReceiver
type VASP = quotes.VASP
type WithdrawalFee = quotes.WithdrawalFee
type WithdrawalFeeRequest = quotes.WithdrawalFeeRequest

// CardLimits bounds the live cards of the platform and of each cardholder
// (Config.CardLimits; zero members take the cards package's defaults).
type CardLimits = cards.Limits

// Stablecoin is a registered provider token.
type Stablecoin = stablecoins.Stablecoin

// StablecoinProviderAccount is a provider-account link; its secret is
// write-only.
type StablecoinProviderAccount = stablecoins.ProviderAccount

// StablecoinOperation is a mint or burn.
type StablecoinOperation = stablecoins.Operation

// AgentDeviceCode is a device code (reference AgentDeviceCode).
type AgentDeviceCode = agents.DeviceCode

// AgentPolicyUpdate is the body of PATCH /agents/{id}/policy (reference
// AgentPolicyUpdateRequest), decoded by the HTTP layer into the pure update.
type AgentPolicyUpdate = agents.PolicyUpdate

// Moved to github.com/paygrid/payments/cards.

type Card = cards.Card

const CardAuthorization = cards.CardAuthorization
const CardAuthorizationAdvice = cards.CardAuthorizationAdvice
const CardBalanceInquiry = cards.CardBalanceInquiry
const CardClearing = cards.CardClearing
const CardCreditAuthorization = cards.CardCreditAuthorization
const CardCreditAuthorizationAdvice = cards.CardCreditAuthorizationAdvice

type CardEvent = cards.CardEvent
type CardEventKind = cards.CardEventKind

var CardEventKinds = cards.CardEventKinds

type CardEventOutcome = cards.CardEventOutcome
type CardFilter = cards.CardFilter

const CardFinancialAuthorization = cards.CardFinancialAuthorization
const CardFinancialCreditAuthorization = cards.CardFinancialCreditAuthorization

type CardIssue = cards.CardIssue
type CardIssueRequest = cards.CardIssueRequest
type CardIssuer = cards.CardIssuer

const CardReturn = cards.CardReturn
const CardReturnReversal = cards.CardReturnReversal

type CardReveal = cards.CardReveal
type CardSimulation = cards.CardSimulation
type CardSimulationResult = cards.CardSimulationResult
type CardSimulator = cards.CardSimulator
type Cards = cards.Service
type CreateCardRequest = cards.CreateCardRequest
type CurrencyCode = cards.CurrencyCode

const EventCardFundingSourceChange = cards.EventCardFundingSourceChange
const EventCardStateChange = cards.EventCardStateChange
const EventCardTransaction = cards.EventCardTransaction

type OptionalInt64 = cards.OptionalInt64
type UpdateCardRequest = cards.UpdateCardRequest

// Moved to github.com/paygrid/payments/stablecoins.

type ProviderAccountFilter = stablecoins.ProviderAccountFilter
type ProviderAccountInfo = stablecoins.ProviderAccountInfo
type ProviderAccountRef = stablecoins.ProviderAccountRef
type StablecoinFilter = stablecoins.StablecoinFilter
type StablecoinPlan = stablecoins.StablecoinPlan
type StablecoinPlanRequest = stablecoins.StablecoinPlanRequest
type StablecoinProvider = stablecoins.StablecoinProvider
type StablecoinStep = stablecoins.StablecoinStep
type StablecoinToken = stablecoins.StablecoinToken
type Stablecoins = stablecoins.Service

// Moved to github.com/paygrid/payments/agents.

type Agent = agents.Agent
type AgentAction = agents.AgentAction
type AgentCreateRequest = agents.AgentCreateRequest
type AgentCreated = agents.AgentCreated
type AgentCredential = agents.AgentCredential
type AgentDeviceCodeStatus = agents.AgentDeviceCodeStatus
type AgentFilter = agents.AgentFilter
type AgentTransfer = agents.AgentTransfer
type AgentTransferDetails = agents.AgentTransferDetails
type AgentUpdate = agents.AgentUpdate
type Agents = agents.Service
type ApprovalFilter = agents.ApprovalFilter

// Moved to github.com/paygrid/payments/wallets.

type AuthMethod = wallets.AuthMethod
type AuthMethodResponse = wallets.AuthMethodResponse
type AuthSession = wallets.AuthSession
type ChallengeRequest = wallets.ChallengeRequest

const CodeEmailOtpCredentialSetChanged = wallets.CodeEmailOtpCredentialSetChanged
const CodeEmailOtpEmailAlreadyExists = wallets.CodeEmailOtpEmailAlreadyExists
const CodeSmsOtpCredentialSetChanged = wallets.CodeSmsOtpCredentialSetChanged
const CodeSmsOtpPhoneNumberAlreadyExists = wallets.CodeSmsOtpPhoneNumberAlreadyExists

type CreateCredentialRequest = wallets.CreateCredentialRequest
type CreateDelegatedKeyRequest = wallets.CreateDelegatedKeyRequest
type CredentialChallenge = wallets.CredentialChallenge

const CredentialEmailOTP = wallets.CredentialEmailOTP
const CredentialOAuth = wallets.CredentialOAuth
const CredentialPasskey = wallets.CredentialPasskey
const CredentialSmsOTP = wallets.CredentialSmsOTP

var CredentialTypes = wallets.CredentialTypes
var DefaultWalletRelyingParty = wallets.DefaultWalletRelyingParty

type DelegatedKey = wallets.DelegatedKey

const DelegatedKeyActive = wallets.DelegatedKeyActive

type DelegatedKeyFilter = wallets.DelegatedKeyFilter

const DelegatedKeyPending = wallets.DelegatedKeyPending
const DelegatedKeyRevoked = wallets.DelegatedKeyRevoked

type ExportRequest = wallets.ExportRequest

const LegacyPasskeySignature = wallets.LegacyPasskeySignature
const LegacyWalletSignature = wallets.LegacyWalletSignature

type PasskeyAuthChallenge = wallets.PasskeyAuthChallenge
type RefreshRequest = wallets.RefreshRequest

const SandboxOTPCode = wallets.SandboxOTPCode

type Signature = wallets.Signature
type SignedChallenge = wallets.SignedChallenge

const SignedRequestTTL = wallets.SignedRequestTTL

type UpdateInternalAccountRequest = wallets.UpdateInternalAccountRequest
type VerifyRequest = wallets.VerifyRequest
type WalletExport = wallets.WalletExport

const WalletOTPAttempts = wallets.WalletOTPAttempts
const WalletOTPChallengesPerHour = wallets.WalletOTPChallengesPerHour
const WalletOTPLockout = wallets.WalletOTPLockout
const WalletOTPResendInterval = wallets.WalletOTPResendInterval
const WalletOTPTTL = wallets.WalletOTPTTL
const WalletSessionTTL = wallets.WalletSessionTTL

type Wallets = wallets.Service
