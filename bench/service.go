package bench

import (
	"context"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/verify"
)

// Calls is every store call that carries plain data: what the screens and bwctl
// ask of a project, whether the project is a local file (package store's DB) or
// on a team server (package remote's Client). It is the one definition of the
// team server's API: package remote generates its client methods and its
// server's dispatch from this list, and package store the Session that binds its
// calls to a person (go generate ./remote), so that a call cannot mean one thing
// locally and another over the network. No call names the person acting: a
// Calls value acts as one person, the one it was bound to (Service.As) — on a
// team server, the user of the session's token, which the server alone decides.
// Every call on a project — by its id, or a sample, release or image of it — is
// its members' alone (store/members.go), reads included.
//
// A method is added here when a screen or bwctl needs it; its arguments and
// results must survive encoding/json (the contract tests in package remote run
// the store's behaviour through a server and fail when one does not).
type Calls interface {
	// Accounts
	AddUser(ctx context.Context, name, role, group, password string) (User, error)
	SetRole(ctx context.Context, name, role, group string) (User, error)
	SetPassword(ctx context.Context, name, password string) error
	Users(ctx context.Context) ([]User, error)
	UserByName(ctx context.Context, name string) (User, error)
	AddUserToProject(ctx context.Context, projectID int64, name, role, group, password string) (User, error)
	Refusals(ctx context.Context, limit int) ([]Event, error)

	// Projects and settings
	CreateProject(ctx context.Context, name string) (Project, error)
	Projects(ctx context.Context) ([]Project, error)
	ProjectByName(ctx context.Context, name string) (Project, error)
	UpdateSettings(ctx context.Context, projectID int64, s Settings) error
	SetSettings(ctx context.Context, projectID int64, values map[string]string) ([]SettingChange, error)
	GroupSettings(ctx context.Context, projectID int64) ([]Setting, error)
	ProjectHistory(ctx context.Context, projectID int64) ([]Event, error)
	Members(ctx context.Context, projectID int64) ([]User, error)
	AddMember(ctx context.Context, projectID int64, userName string) error
	RemoveMember(ctx context.Context, projectID int64, userName string) error
	SetMemberRole(ctx context.Context, projectID int64, userName, role, group string) (User, error)

	// Images (their files: ImageFile)
	Images(ctx context.Context, projectID int64, offset, limit int) ([]Image, error)
	CountImages(ctx context.Context, projectID int64) (int, error)
	ImageByPath(ctx context.Context, projectID int64, rel string) (Image, error)
	ImagesByPaths(ctx context.Context, projectID int64, paths []string) (map[string]Image, error)
	ImageBySHA256(ctx context.Context, projectID int64, sum string) (Image, error)
	ImagesWithoutSamples(ctx context.Context, projectID int64, offset, limit int) ([]Image, error)
	CountImagesWithoutSamples(ctx context.Context, projectID int64) (int, error)
	ImportUploads(ctx context.Context, projectID int64) (ImportResult, error)
	RecordVideoFrames(ctx context.Context, projectID int64, frames []VideoFrame) error
	VideoFrames(ctx context.Context, projectID int64, paths []string) ([]VideoFrame, error)

	// Samples
	CreateSample(ctx context.Context, projectID int64, s annotate.Sample) (SampleInfo, error)
	SaveDraft(ctx context.Context, id string, baseVersion int, s annotate.Sample) (int, error)
	Submit(ctx context.Context, id string, baseVersion int, ack []string) (SampleInfo, error)
	Sample(ctx context.Context, id string) (SampleInfo, error)
	Samples(ctx context.Context, projectID int64, f SampleFilter, offset, limit int) ([]SampleInfo, error)
	CountSamples(ctx context.Context, projectID int64, f SampleFilter) (int, error)
	StatusCounts(ctx context.Context, projectID int64) (map[verify.State]int, error)
	Withdraw(ctx context.Context, id, reason string) error
	Reopen(ctx context.Context, id, reason string) error
	SampleRevisions(ctx context.Context, sampleID string) ([]RevisionInfo, error)
	History(ctx context.Context, sampleID string) ([]Event, error)
	ImportSamples(ctx context.Context, projectID int64, recs []annotate.Imported, opt ImportSamplesOptions) (ImportSamplesResult, error)

	// Verification
	ClaimReview(ctx context.Context, sampleID string, round int) (verify.Claim, error)
	ReleaseClaim(ctx context.Context, sampleID string) error
	SubmitReview(ctx context.Context, in ReviewInput) (verify.Outcome, error)
	ReviewQueue(ctx context.Context, projectID int64, round int) ([]QueueItem, error)
	ReviewQueueLimit(ctx context.Context, projectID int64, round, limit int) ([]QueueItem, error)
	Reviews(ctx context.Context, sampleID string) ([]ReviewRecord, error)
	Correct(ctx context.Context, in CorrectionInput) (SampleInfo, error)

	// The lead's views
	Dashboard(ctx context.Context, projectID int64) (Dashboard, error)
	Agreement(ctx context.Context, projectID int64) (Agreement, error)
	Audit(ctx context.Context, projectID int64) (AuditReport, error)
	AuditPlan(ctx context.Context, in FreezeInput) (AuditReport, error)
	WithdrawDuplicates(ctx context.Context, projectID int64, keep, reason string) (SelectionResult, error)
	ImageHashes(ctx context.Context, projectID int64) (ImageHashes, error)
	Shortcuts(ctx context.Context, projectID int64, opt ShortcutOptions) (ShortcutReport, error)
	RebalanceLetters(ctx context.Context, in RebalanceInput) (RebalanceResult, error)

	// Releases
	Freeze(ctx context.Context, in FreezeInput) (Release, error)
	Releases(ctx context.Context, projectID int64) ([]Release, error)
	ReleaseByRef(ctx context.Context, projectID int64, ref string) (Release, error)
	ReleaseItems(ctx context.Context, releaseID int64) ([]ReleaseItem, error)

	// Models on releases
	ImportPredictions(ctx context.Context, releaseRef, model string, preds []score.Prediction, source string, run PredictionRun) (ImportPredictionsResult, error)
	Predictions(ctx context.Context, releaseRef, model string) ([]score.Prediction, error)
	Models(ctx context.Context, releaseRef string) ([]ModelRun, error)
	Score(ctx context.Context, releaseRef string, models []string, opt score.Options) ([]*score.Report, error)
	SampleScores(ctx context.Context, releaseRef string, sampleID string) (score.Gold, []ModelResult, error)
	ReleaseOutcomes(ctx context.Context, releaseRef string) ([]SampleOutcome, error)

	// The lead's sample manager
	SearchSamples(ctx context.Context, projectID int64, q SampleQuery) (SamplePage, error)
	SampleIDs(ctx context.Context, projectID int64, q SampleQuery) ([]string, error)
	WithdrawSamples(ctx context.Context, ids []string, reason string) (SelectionResult, error)
	ReopenSamples(ctx context.Context, ids []string, reason string) (SelectionResult, error)
	ReassignDrafts(ctx context.Context, ids []string, to, reason string) (SelectionResult, error)
	ReleaseClaims(ctx context.Context, ids []string) (SelectionResult, error)
	ExportSamples(ctx context.Context, projectID int64, ids []string, format SampleFormat) ([]byte, error)
	DeleteDraft(ctx context.Context, id string, baseVersion int) (annotate.Sample, error)

	// Augmentation of verified step graphs
	AugmentCandidates(ctx context.Context, projectID int64, f CandidateFilter) ([]Candidate, error)
	AcceptCandidate(ctx context.Context, projectID int64, ref CandidateRef, toEdit bool) (SampleInfo, error)
	DiscardCandidate(ctx context.Context, projectID int64, ref CandidateRef) error
	SampleLineage(ctx context.Context, sampleID string) (Lineage, bool, error)

	// Hard subsets and the human baseline
	ProposeHardSubset(ctx context.Context, releaseRef string, in HardSubsetInput) (HardSubset, error)
	ProposeDebiasedSubset(ctx context.Context, releaseRef string, in DebiasInput) (HardSubset, error)
	HardSubsets(ctx context.Context, releaseRef string) ([]HardSubset, error)
	HardCandidates(ctx context.Context, subsetID int64) (HardSubset, []HardCandidate, error)
	DecideHardCandidates(ctx context.Context, subsetID int64, ds []HardDecision) (HardSubset, error)
	FreezeHardSubset(ctx context.Context, subsetID int64, name, version string) (Release, error)
	DrawHumanBaseline(ctx context.Context, releaseRef string, size int, seed int64) (HumanBaseline, error)
	HumanBaselineOf(ctx context.Context, releaseRef string) (HumanBaseline, bool, error)
	HumanItems(ctx context.Context, releaseRef string) ([]HumanItem, error)
	AnswerHuman(ctx context.Context, releaseRef, sampleID string, ans score.HumanAnswer) error
	HumanReport(ctx context.Context, releaseRef string, opt score.Options) (*score.Report, bool, error)

	// Sampled validation of generated batches
	ImportBatch(ctx context.Context, in ImportBatchInput) (ImportBatchResult, error)
	ValidationBatches(ctx context.Context, projectID int64) ([]ValidationBatch, error)
	DrawValidation(ctx context.Context, in DrawInput) (ValidationStatus, error)
	ValidationStatus(ctx context.Context, projectID int64, batch string) (ValidationStatus, error)
	AcceptRest(ctx context.Context, projectID int64, batch string) (AcceptRestResult, error)

	// Planting (issue 30), a lead's alone: the verifiers' catch and false-alarm
	// figures, the planted copies with their origins, and resuming a verifier the
	// pause rule stopped.
	PlantedStatus(ctx context.Context, projectID int64) (PlantStatus, error)
	PlantedList(ctx context.Context, projectID int64) ([]PlantedItem, error)
	PlantResume(ctx context.Context, projectID int64, verifier string) error
}

// Session is a project as one person works on it: the Calls, and what acting on
// this workstation adds — image files, importing a folder, exporting, auditing a
// freeze. Every call acts as that person; none names them. Service.As gives one.
type Session interface {
	Calls

	// ImageFile returns the path of a local file holding the image with content
	// hash sha in size (its preview, its thumbnail or the original file), fetching
	// it first when the project is on a server. The image must be in a project
	// the session's person is a member of.
	ImageFile(ctx context.Context, sha string, size ImageSize) (string, error)
	// ImportImages imports the images below dir, a folder on this workstation:
	// in place for a local file; uploaded (only what the server lacks, each file
	// hash-checked) and then imported on a team server.
	ImportImages(ctx context.Context, projectID int64, dir string, progress func(ImportProgress)) (ImportResult, error)
	// Export writes a frozen release in a format into in.OutDir on this
	// workstation (on a team server: exported there, then sent and unpacked here).
	Export(ctx context.Context, in ExportInput, progress func(done, total int)) (ExportResult, error)
	// AuditFreeze audits what a freeze of in would write, reporting image-hashing
	// progress when the images are on this machine (a team server's client
	// reports none).
	AuditFreeze(ctx context.Context, in FreezeInput, progress func(done, total int)) (AuditReport, error)
}

// Service is what the screens and bwctl work with: signing in and out, the first
// account, and the Session of the person signed in. Package store's DB
// implements it for a local project file; package remote's Client for a team
// server.
type Service interface {
	// As is the project as u works on it: every call of the Session acts as u.
	// A local file believes u (the screens pass the account Authenticate or
	// CreateFirstLead returned); a team server's client acts only as the
	// account signed in, and its Session for anyone else refuses every call.
	As(u User) Session

	// HasUsers reports whether any account exists (the first start asks for a lead).
	HasUsers(ctx context.Context) (bool, error)
	// CreateFirstLead creates the first account of an empty database.
	CreateFirstLead(ctx context.Context, name, password string) (User, error)
	// Authenticate checks a name and password and returns the account; on a team
	// server it also opens the session the later calls act in.
	Authenticate(ctx context.Context, name, password string) (User, error)
	// SignOut ends the session Authenticate opened (nothing to do locally).
	SignOut(ctx context.Context) error
	// Where names the project for people: a file path or a server address.
	Where() string
	// LastChange is a number that grows whenever anyone acts on the project:
	// screens poll it and read their data again when it moved.
	LastChange(ctx context.Context) (int64, error)
}

// A Connection is a Service on a team server (package remote's client): the
// certificate it trusts, and Close, which ends the connection.
type Connection interface {
	Service
	// Fingerprint is the server certificate's SHA-256 fingerprint the
	// connection trusts ("SHA256:…").
	Fingerprint() string
	Close() error
}

// A Dialer connects to team servers: package remote's. The screens get one from
// main and never import remote, so that the app's screens link neither a
// database nor the network client; a build handed none cannot connect.
type Dialer interface {
	// ParseAddress is address as the https:// base URL a certificate is pinned
	// for, or a sentence saying why it is not an address.
	ParseAddress(address string) (string, error)
	// Dial connects to base, trusting the certificate with fingerprint; with
	// fingerprint "", trust decides about the certificate seen (an error
	// refuses it). Previews fetched from the server are cached below cacheDir
	// ("": the user's cache folder).
	Dial(ctx context.Context, base, fingerprint, cacheDir string, trust func(fingerprint string) error) (Connection, error)
}
