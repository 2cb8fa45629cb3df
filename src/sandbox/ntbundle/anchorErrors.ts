import { InstructionFailure } from "../runtime/errors.ts"

/**
 * Anchor errors as the program raises them: its own error enum (the IDL's `errors`, codes
 * 6000+, shown as `custom program error: 0x17xx`) and the Anchor framework errors its account
 * constraints raise. The log line is Anchor's: `AnchorError occurred. Error Code: <Name>. Error
 * Number: <n>. Error Message: <msg>.`, or `AnchorError caused by account: <name>. ...` for an
 * account constraint.
 */
export const PROGRAM_ERRORS = {
  InsufficientFunds: [6000, "Insufficient funds to process withdrawal"],
  AllocationAmountZero: [6001, "Allocation amount must be > 0"],
  RedemptionAmountExceeded: [6002, "Redemption exceeds bundle balance"],
  RefillAmountInvalid: [6003, "Refill amount must be > 0"],
  UnauthorizedKeeperAction: [6004, "Not bundle keeper"],
  UnauthorizedManagerAction: [6005, "Not bundle manager"],
  UnauthorizedAdminAction: [6006, "Not bundle admin"],
  UnauthorizedBundleCreator: [6007, "Not whitelisted bundle creator"],
  CallerNotNeutralFeeIncrementer: [6008, "Not neutral fee incrementer"],
  AmountMustBeBelowMax: [6009, "Amount above max limit"],
  InvalidNeutralFeeIncrementer: [6010, "Invalid fee incrementer"],
  InvalidReceiver: [6011, "Invalid receiver address"],
  MathError: [6012, "Math error"],
  InvalidAllocations: [6013, "Invalid allocations"],
  MustBeInWhitelist: [6014, "Not in whitelist"],
  DistributionAlreadyStarted: [6015, "Distribution already started"],
  DistributionNotStarted: [6016, "Distribution not started"],
  LeftToDistributeNotZero: [6017, "Distribution amount not zero"],
  ReceiverAlreadyAllocated: [6018, "Receiver already allocated"],
  RawTransferReceiver: [6019, "Not a raw transfer receiver"],
  InvalidTwapPeriod: [6020, "Invalid twap period"],
  RefillAmountExceeded: [6021, "Refill amount exceeded"],
  PodTokenTotalSupplyZero: [6022, "Pod token total supply is zero"],
  AllocationBpsGreaterThanGlobalAllocationBps: [6023, "Allocation bps greater than global allocation bps"],
  EquityOutOfBufferBound: [6024, "Equity out of buffer bound"],
  RedemptionAmountZero: [6025, "Redemption amount must be > 0"],
  PendingDepositExists: [6026, "Pending deposit exists"],
  InsufficientSharesBalance: [6027, "Insufficient Shares balance"],
  PendingWithdrawalExists: [6028, "Pending withdrawal exists"],
  PendingDepositOrWithdrawalExists: [6029, "Pending deposit or withdrawal exists"],
  NoPendingWithdrawal: [6030, "No pending withdrawal"],
  WithdrawalAlreadyProcessed: [6031, "Withdrawal already processed"],
  PendingDepositAmountZero: [6032, "Pending deposit amount is zero"],
  InsufficientBundleBalance: [6033, "Insufficient bundle balance"],
  NoPendingTransactions: [6034, "No pending transactions"],
  DepositsExtraInPendingsNotZero: [6035, "Deposits extra in pendings not zero"],
  PendingTransactionsExist: [6036, "Pending transactions exist"],
  ManagerSharesZero: [6037, "Manager shares is zero"],
  PausedDepositsWithdrawals: [6038, "Paused deposits withdrawals"],
  UnpausedDepositsWithdrawals: [6039, "Unpaused deposits withdrawals"],
  NettingNotDone: [6040, "Netting not done"],
  NettingAlreadyDone: [6041, "Netting already done"],
  OracleNotUpdated: [6042, "Oracle not updated"],
  MaxDepositAmountExceeded: [6043, "Max deposit amount exceeded"],
  TotalAssetExceedNewMaxDepositAmount: [6044, "Total asset exceed new max deposit amount"],
  AllocationBpsIsZero: [6045, "Allocation bps is zero"],
  DepositAmountZero: [6046, "Deposit amount is zero"],
  InvalidWithdrawalDelay: [6047, "Invalid withdrawal delay"],
  InvalidWithdrawalCooldownPeriod: [6048, "Invalid withdrawal cooldown period"],
  InvalidOracleBuffer: [6049, "Invalid oracle buffer"],
  ExcessivePerformanceFee: [6050, "Excessive performance fee"],
  ExcessiveManagementFee: [6051, "Excessive management fee"],
  ExcessiveDepositFee: [6052, "Excessive deposit fee"],
  ExcessiveWithdrawFee: [6053, "Excessive withdraw fee"],
  WithdrawalDelayNotMet: [6054, "Withdrawal delay not met"],
  InvalidAssetPrecision: [6055, "Invalid asset precision"],
  InvalidAssetAddress: [6056, "Invalid asset address"],
  InvalidPermissionnedDepositor: [6057, "Invalid permissionned depositor"],
  PayerNotAuthority: [6058, "Payer is not the authority"],
  StrategyAlreadyEnabled: [6059, "Strategy is already enabled"],
  StrategyDisabled: [6060, "Strategy is disabled"],
  InvalidWithdrawalAmount: [6061, "Invalid withdrawal amount"],
  BundleNotPermissionned: [6062, "Not permissionned"],
  BundleIsPermissionned: [6063, "Bundle is permissionned, use initialize_permissioned_bundle_depositor"],
  TooManyAllocatedReceivers: [6064, "Too many allocated receivers"],
  OracleUpdateTooFrequent: [6065, "Oracle update too frequent"],
  UserBundleAccountNotEmpty: [6066, "User bundle account not empty"],
  MinDepositAmountNotMet: [6067, "Min deposit amount not met"],
  InvalidOracleMaxAge: [6068, "Invalid oracle max age"],
  InvalidOracleUpdateTimeLimit: [6069, "Invalid oracle update time limit"],
  InvalidWithdrawalRedemptionSchedule: [6070, "Invalid withdrawal redemption schedule"],
  InvalidUserFeeConfig: [6071, "Invalid user fee configuration"],
  EmptyUserFeeClearRequest: [6072, "Empty user fee clear request"],
  NoUserFeeOverrideToClear: [6073, "No user fee override to clear"],
  InvalidUserWithdrawalTimingConfig: [6074, "Invalid user withdrawal timing configuration"],
  EmptyUserWithdrawalTimingClearRequest: [6075, "Empty user withdrawal timing clear request"],
  NoUserWithdrawalTimingOverrideToClear: [6076, "No user withdrawal timing override to clear"],
  SwitchTargetSameAsSource: [6077, "Switch target cannot be source bundle"],
  SwitchAssetMintMismatch: [6078, "Switch asset mint mismatch"],
  SwitchAlreadyActive: [6079, "Switch already active"],
  NoPendingSwitch: [6080, "No pending switch"],
  SwitchTargetAccountsMissing: [6081, "Switch target accounts missing"],
  SwitchTargetAccountMismatch: [6082, "Switch target account mismatch"],
  InvalidFeeSplit: [6083, "Invalid fee split"],
  InvalidReferralConfig: [6084, "Invalid referral configuration"],
  ReferralsDisabled: [6085, "Referrals disabled for bundle"],
  ReferralAlreadySet: [6086, "Referral already set"],
  UserBundleAccountHasActivity: [6087, "User has existing bundle activity"],
  ReferrerAccountMissing: [6088, "Referrer account missing"],
  ReferrerAccountMismatch: [6089, "Referrer account mismatch"],
  ReferrerSharesZero: [6090, "Referrer shares are zero"],
  UnauthorizedReferrerAction: [6091, "Not referrer"],
  ReferrerDepositTooLow: [6092, "Referrer deposit too low"],
  InvalidReferralTierConfig: [6093, "Invalid referral tier configuration"],
} as const

/** The Anchor framework errors the model's account checks raise (anchor-lang's ErrorCode). */
export const FRAMEWORK_ERRORS = {
  InstructionFallbackNotFound: [101, "Fallback functions are not supported"],
  InstructionDidNotDeserialize: [102, "The program could not deserialize the given instruction"],
  ConstraintMut: [2000, "A mut constraint was violated"],
  ConstraintHasOne: [2001, "A has one constraint was violated"],
  ConstraintSeeds: [2006, "A seeds constraint was violated"],
  ConstraintAddress: [2012, "An address constraint was violated"],
  ConstraintTokenMint: [2014, "A token mint constraint was violated"],
  ConstraintTokenOwner: [2015, "A token owner constraint was violated"],
  AccountDiscriminatorMismatch: [3002, "8 byte discriminator did not match what was expected"],
  AccountDidNotDeserialize: [3003, "Failed to deserialize the account"],
  AccountNotEnoughKeys: [3005, "Not enough account keys given to the instruction"],
  AccountNotMutable: [3006, "The given account is not mutable"],
  AccountOwnedByWrongProgram: [3007, "The given account is owned by a different program than expected"],
  InvalidProgramId: [3008, "Program ID was not as expected"],
  AccountNotSigner: [3010, "The given account did not sign"],
  AccountNotInitialized: [3012, "The program expected this account to be already initialized"]
} as const

export type ProgramErrorName = keyof typeof PROGRAM_ERRORS
export type FrameworkErrorName = keyof typeof FRAMEWORK_ERRORS
export type AnchorErrorName = ProgramErrorName | FrameworkErrorName

const lookup = (name: AnchorErrorName): readonly [number, string] =>
  name in PROGRAM_ERRORS ? PROGRAM_ERRORS[name as ProgramErrorName] : FRAMEWORK_ERRORS[name as FrameworkErrorName]

export const anchorErrorCode = (name: AnchorErrorName): number => lookup(name)[0]

/** Fails the instruction with an Anchor error; `account` names the account a constraint failed on. */
export const anchorFail = (name: AnchorErrorName, account?: string): never => {
  const [code, message] = lookup(name)
  const origin = account === undefined ? "AnchorError occurred." : `AnchorError caused by account: ${account}.`
  throw new InstructionFailure({ Custom: code }, `Program log: ${origin} Error Code: ${name}. Error Number: ${code}. Error Message: ${message}.`)
}

/** `require!(condition, error)`. */
export const ensure = (condition: boolean, name: AnchorErrorName, account?: string): void => {
  if (!condition) anchorFail(name, account)
}
