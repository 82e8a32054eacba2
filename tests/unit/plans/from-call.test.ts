// "Save as test case" from a finished call, and the run's estimated cost.
import { describe, expect, it } from 'vitest';
import { callerScript } from '../../../lib/plans/checks-schema';
import { callerScriptFromExecution, caseFromExecution, estimateRunCost } from '../../../lib/plans/from-call';
import { judgeCase } from '../../../lib/plans/judge';
import { testCase } from '../../../lib/plans/schema';
import { liveExecution, specExecution } from './fixtures';

describe('caseFromExecution', () => {
  it('turns a finished call into a valid case that passes on that same call', () => {
    const call = liveExecution();
    const c = caseFromExecution(call, 'from-call', 'Ann books a callback');
    expect(c).toEqual({
      id: 'from-call',
      label: 'Ann books a callback',
      contact_number: '+14155550123',
      variables: { name: 'Ann' },
      expect: {
        status: 'completed',
        extracted: { interested: { equals: true }, callback_time: { equals: 'tomorrow 10am' }, budget: { equals: '1200' }, customer_name: { absent: true } },
      },
    });
    expect(testCase.safeParse(c).success).toBe(true);
    expect(judgeCase(testCase.parse(c), call).verdict).toBe('pass');
  });
  it('a voicemail becomes `voicemail`; a call with no extracted data expects only its status', () => {
    const vm = caseFromExecution(specExecution({ answered_by_voice_mail: true, extracted_data: null }), 'vm', 'Voicemail');
    expect(vm.expect).toEqual({ status: 'voicemail' });
    expect(vm.contact_number).toBe('+14155550124');
  });
});

describe('estimateRunCost', () => {
  it('the mean cost of recent completed calls with a cost, times the number of calls', () => {
    const recent = [liveExecution({ total_cost: 10 }), liveExecution({ total_cost: 20 }), liveExecution({ status: 'busy', total_cost: 0 }), liveExecution({ total_cost: null })];
    expect(estimateRunCost(recent, 6)).toEqual({ cents: 90, basedOn: 2 });
  });
  it('nothing to go by: null', () => {
    expect(estimateRunCost([], 3)).toBeNull();
    expect(estimateRunCost([liveExecution({ status: 'no-answer', total_cost: 0 })], 3)).toBeNull();
  });
});

describe('callerScriptFromExecution (Save as test case offers the caller lines)', () => {
  it("the caller's turns, in order, as say steps that the plan's schema accepts", () => {
    const steps = callerScriptFromExecution(liveExecution({ transcript: '\nAgent: Hello!\r\nCustomer:  Yes,   who is it?\r\nAgent: Ava.\r\nCustomer: Call me Friday.' }));
    expect(steps).toEqual([{ say: 'Yes, who is it?' }, { say: 'Call me Friday.' }]);
    expect(callerScript.safeParse(steps).success).toBe(true);
    expect(callerScriptFromExecution(liveExecution({ transcript: null }))).toEqual([]);
  });
});
