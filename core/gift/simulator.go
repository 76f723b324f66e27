package gift

import (
	"context"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// In test mode nothing is produced or shipped, so the fulfilment simulator
// gives each test gift with a known address a realistic life instead: once
// it is ready, River jobs walk it to in_production, shipped (with a fake
// carrier and tracking number) and delivered over a few minutes, through
// MoveGift like the staff command, so agents see the same events a live
// gift would produce. Live gifts are never simulated
// (docs/decisions/0063-test-mode-fulfilment-simulator.md).

// SimulatedCarrier is the carrier the simulator ships test gifts with.
const SimulatedCarrier = "Giftwell Test Post"

// simulationStep is one step of the simulator: the status a test gift in
// From becomes, After the gift reached From.
type simulationStep struct {
	From, To SendStatus
	After    time.Duration
}

// simulationSteps are the simulator's steps: about five minutes from ready
// to delivered.
var simulationSteps = []simulationStep{
	{From: SendReady, To: SendInProduction, After: time.Minute},
	{From: SendInProduction, To: SendShipped, After: 2 * time.Minute},
	{From: SendShipped, To: SendDelivered, After: 2 * time.Minute},
}

// simulationStepFrom is the step that moves a gift on from status s.
func simulationStepFrom(s SendStatus) (simulationStep, bool) {
	for _, st := range simulationSteps {
		if st.From == s {
			return st, true
		}
	}
	return simulationStep{}, false
}

// simulationStepTo is the step that makes a gift status s.
func simulationStepTo(s SendStatus) (simulationStep, bool) {
	for _, st := range simulationSteps {
		if st.To == s {
			return st, true
		}
	}
	return simulationStep{}, false
}

// SimulateFulfilmentArgs is the River job of one simulator step: gift
// SendID becomes Step, if it is still in the status before it.
type SimulateFulfilmentArgs struct {
	SendID string     `json:"send_id" river:"unique"`
	Step   SendStatus `json:"step" river:"unique"`
}

// Kind names the job.
func (SimulateFulfilmentArgs) Kind() string { return "simulate_fulfilment" }

// scheduleSimulation inserts, in tx, the simulator's next step for gift
// sendID that has just become status in mode: only for a test gift, only
// while the simulator is on (Service.TestFulfilment), and only from ready,
// in_production or shipped. The job is due the step's delay after the
// service's clock's now, and unique per gift and step.
func (a *Service) scheduleSimulation(ctx context.Context, tx pgx.Tx, sendID string, mode core.Mode, status SendStatus) error {
	if mode != core.ModeTest || !a.TestFulfilment {
		return nil
	}
	st, ok := simulationStepFrom(status)
	if !ok {
		return nil
	}
	_, err := a.InsertJob(ctx, tx, SimulateFulfilmentArgs{SendID: sendID, Step: st.To}, &river.InsertOpts{
		ScheduledAt: a.Clock.Now().Add(st.After),
		UniqueOpts:  river.UniqueOpts{ByArgs: true},
	})
	return err
}

// SimulateFulfilment runs one simulator step: in one transaction it locks
// test gift sendID and, when it is still in the status before step, moves
// it to step through MoveGift's rules and events (shipped with
// SimulatedCarrier and a TEST tracking number, no tracking URL), which
// schedules the next step. A gift that moved on meanwhile (the staff
// command moved it, or it was cancelled), a live gift, an unknown gift and
// a simulator turned off are left alone: moved is false and nothing is
// scheduled. A ready gift whose portrait is not approved (portraitBlock)
// is skipped too: SimulateFulfilmentWorker tries that step again later.
func (a *Service) SimulateFulfilment(ctx context.Context, sendID string, step SendStatus) (moved bool, err error) {
	moved, _, err = a.simulateFulfilment(ctx, sendID, step)
	return moved, err
}

// portraitRetry is how long the simulator waits before trying again to
// move a gift whose portrait is not approved yet.
const portraitRetry = 5 * time.Minute

// simulateFulfilment is SimulateFulfilment; waiting says the gift stays
// ready because its portrait is not approved.
func (a *Service) simulateFulfilment(ctx context.Context, sendID string, step SendStatus) (moved, waiting bool, err error) {
	st, ok := simulationStepTo(step)
	if !ok || !a.TestFulfilment {
		return false, false, nil
	}
	err = a.InTxJobs(ctx, func(tx pgx.Tx) error {
		row, err := db.New(tx).SendGetForUpdate(ctx, sendID)
		if core.IsNoRows(err) {
			return nil
		}
		if err != nil {
			return core.Internal(err)
		}
		if core.Mode(row.Mode) != core.ModeTest || SendStatus(row.Status) != st.From {
			return nil
		}
		if st.To == SendInProduction && portraitBlock(row) != nil {
			waiting = true
			return nil
		}
		m := GiftMove{SendID: sendID, To: st.To, Reason: "test mode: simulated fulfilment"}
		if st.To == SendShipped {
			m.Carrier, m.TrackingNumber = SimulatedCarrier, simulatedTrackingNumber(sendID)
		}
		if _, err := a.moveGift(ctx, tx, m); err != nil {
			return err
		}
		moved = true
		return nil
	})
	return moved, waiting, core.AsCoreError(err)
}

// simulatedTrackingNumber is the fake tracking number of test gift
// sendID: TEST and twelve digits, the same on every run.
func simulatedTrackingNumber(sendID string) string {
	h := fnv.New64a()
	_, _ = h.Write([]byte(sendID))
	return fmt.Sprintf("TEST%012d", h.Sum64()%1_000_000_000_000)
}

// SimulateFulfilmentWorker works SimulateFulfilmentArgs jobs
// (SimulateFulfilment); an error makes River retry the step, and a gift
// waiting for its portrait's approval snoozes the job for portraitRetry.
type SimulateFulfilmentWorker struct {
	river.WorkerDefaults[SimulateFulfilmentArgs]
	Gifts *Service
}

var _ river.Worker[SimulateFulfilmentArgs] = (*SimulateFulfilmentWorker)(nil)

// Work runs the job's step once.
func (w *SimulateFulfilmentWorker) Work(ctx context.Context, job *river.Job[SimulateFulfilmentArgs]) error {
	_, waiting, err := w.Gifts.simulateFulfilment(ctx, job.Args.SendID, job.Args.Step)
	if err == nil && waiting {
		return river.JobSnooze(portraitRetry)
	}
	return err
}
