// What the partners module offers other modules; they import nothing else from it.
export { isPartnerLinkedToClinic } from './partners.service';
