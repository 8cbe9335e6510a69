// The admin pages' outcome message is the shared one (components/ui/field).
export { FormAlert } from "~/components/ui/field";
