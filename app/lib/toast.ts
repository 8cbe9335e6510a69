/** A toast message (sonner), as travels from the server to the page. */
export type ToastMessage = {
  type: "success" | "error" | "info";
  title: string;
  description?: string;
};
