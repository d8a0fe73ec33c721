// callworker.js: the module worker that makes a batch run's judge calls (calls.js serveCalls).
import { serveCalls } from "./calls.js";

serveCalls(self);
