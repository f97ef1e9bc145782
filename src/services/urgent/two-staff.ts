/** Whether an action needs two staff: the app's own mark, or one of the care system's tags the home named (answer-policy.ts). */
import type { Action } from '../../care/index.js';
import type { WorkspaceStore } from '../../store/index.js';
import { needsTwoStaff, readTwoStaffTags, TWO_STAFF_SETTING } from './answer-policy.js';

export async function twoStaffOf(store: Pick<WorkspaceStore, 'twoStaffMark' | 'getHomeSetting'>, action: Pick<Action, '_id' | 'user_tags'>): Promise<boolean> {
  const [mark, tags] = await Promise.all([store.twoStaffMark(action._id), store.getHomeSetting(TWO_STAFF_SETTING)]);
  return needsTwoStaff(mark, action.user_tags, readTwoStaffTags(tags?.value));
}
