/**
 * The stored plans and runs, read straight from the data store (same origin) and kept current by its
 * change channel: a run's progress shows as the background stores it, with no polling.
 */
import { useEffect, useState } from 'preact/hooks';
import type { PlanRun } from '../../lib/plans/run-state';
import { readPlans, readRuns, type StoredPlan } from '../../lib/plans/store';
import { DATA } from '../../lib/storage-keys';
import { readData, watchData } from '../../lib/store/data-db';

export interface PlansData {
  ready: boolean;
  plans: StoredPlan[];
  runs: PlanRun[];
}

export function usePlansData(): PlansData {
  const [data, setData] = useState<PlansData>({ ready: false, plans: [], runs: [] });
  useEffect(() => {
    let live = true;
    const early = new Set<string>();
    const unwatch = watchData((change) => {
      if (change.name === DATA.plans) setData((d) => ({ ...d, plans: readPlans(change.value).items }));
      else if (change.name === DATA.planRuns) setData((d) => ({ ...d, runs: readRuns(change.value).items }));
      else return;
      early.add(change.name);
    });
    void readData([DATA.plans, DATA.planRuns])
      .then((found) => {
        if (!live) return;
        setData((d) => ({
          ready: true,
          plans: early.has(DATA.plans) ? d.plans : readPlans(found[DATA.plans]).items,
          runs: early.has(DATA.planRuns) ? d.runs : readRuns(found[DATA.planRuns]).items,
        }));
      })
      .catch(() => live && setData((d) => ({ ...d, ready: true })));
    return () => {
      live = false;
      unwatch();
    };
  }, []);
  return data;
}
